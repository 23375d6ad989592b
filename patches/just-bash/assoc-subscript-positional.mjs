// An associative array's subscript is expanded in full (bash(1) "Arrays": the subscript undergoes parameter and
// variable expansion, command substitution, arithmetic expansion and quote removal), so `${map[$1]}` reads the
// element whose key is the first positional parameter. just-bash's subscript expansion for associative arrays
// replaced only `$name` and `${name}`: `$1`, `${10}`, `$#`, `$@`, `$*` stayed as text, the element looked up was the
// one keyed `$1`, and a helper like `port_for() { echo "${PORTS[$1]:-unknown}"; }` always said `unknown`.
export default {
  title: "an associative array's subscript expands positional and special parameters",
  upstream: 'src/interpreter/expansion (the associative-subscript expansion used by variable lookup and `-v`): expand $N, ${N}, $#, $@, $* as well as $name and ${name}',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Fl(e,t){let n=t.replace(/\\$\\{([a-zA-Z_][a-zA-Z0-9_]*)\\}/g,(r,s)=>e.state.env.get(s)??"");return n=n.replace(/\\$([a-zA-Z_][a-zA-Z0-9_]*)/g,(r,s)=>e.state.env.get(s)??""),n}',
      replace: 'function Fl(e,t){let n=t.replace(/\\$\\{([a-zA-Z_][a-zA-Z0-9_]*|[0-9]+|[#@*])\\}/g,(r,s)=>e.state.env.get(s)??"");return n=n.replace(/\\$([a-zA-Z_][a-zA-Z0-9_]*|[0-9#@*])/g,(r,s)=>e.state.env.get(s)??""),n}',
    },
  ],
};
