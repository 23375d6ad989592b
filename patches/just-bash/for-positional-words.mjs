// `for name; do … done` (no `in`) loops over the positional parameters as they are, one pass per parameter, as if
// `in "$@"` were written: `f() { for a; do echo "$a"; done; }; f "a b" c` prints `a b` then `c`. Bash's manual,
// "Looping Constructs". just-bash split the space-joined "$@" on spaces, so an argument with a space became two
// passes and an empty one none.
export default {
  title: 'for NAME without in loops over the positional parameters unsplit',
  upstream: 'src/interpreter/control-flow.ts executeFor: when words is null, iterate the positional parameters $1…$# instead of splitting $@ on spaces',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let i=[];if(t.words===null)i=(e.state.env.get("@")||"").split(" ").filter(Boolean);else if(t.words.length===0)',
      replace: 'let i=[];if(t.words===null)for(let _c=Number.parseInt(e.state.env.get("#")||"0",10),_i=1;_i<=_c;_i++)i.push(e.state.env.get(String(_i))??"");else if(t.words.length===0)',
    },
  ],
};
