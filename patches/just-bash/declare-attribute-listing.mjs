// `declare -x`, `declare -r` and `declare -n` with no names list the variables with that attribute as `declare -p`
// does (`declare -x HOME="/home/sprite"`), as bash's manual says ("If no names are given, display the values of
// variables having the given attributes"); just-bash printed every shell variable in `set`'s form instead.
// bash's builtins/declare.def declare_internal (no names: set_builtin-style listing only without attributes).
export default {
  title: 'declare -x/-r/-n with no names lists the variables with that attribute',
  upstream: 'src/interpreter/builtins/declare.ts: with no names and an -x, -r or -n filter (without -p), list through listAllVariables with those filters, as for -p',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(g.length===0&&s&&!a)return Tu(e);',
      replace: 'if(g.length===0&&(o||i||l))return _u(e,{filterExport:o,filterReadonly:i,filterNameref:l,filterIndexedArray:r,filterAssocArray:s});if(g.length===0&&s&&!a)return Tu(e);',
    },
  ],
};
