// `compgen -v` lists every shell variable, bash's dynamic ones too (BASH_VERSION, BASHPID, EPOCHSECONDS, LINENO,
// RANDOM, SECONDS…), as `${!prefix@}` does (name-prefix-dynamic): the interpreter computes those on expansion and
// kept them out of the list. The names now come from the same lookup as `${!prefix@}`, with every prefix.
export default {
  title: '`compgen -v` lists the dynamic variables too',
  upstream: 'src/interpreter/builtins/compgen.ts (-A variable): list the names getVarNamesWithPrefix gives for the empty prefix',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function $h(e,t,n){let r=ct(e,t,n);for(let s of e.state.env.keys())/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(s)&&!/^__spritzer_/.test(s)&&r.add(s);',
      replace: 'function $h(e,t,n){let r=ct(e,t,n);for(let s of In(e,""))/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(s)&&r.add(s);',
    },
  ],
};
