// In `declare -A h=([key]=value …)` an unquoted key runs to its `]`, `=` included, and a backslash in it quotes the
// next character (bash's manual, "Arrays": `name=([key]=value …)`; the key is expanded as a word): `[q=r]=3` has
// the key `q=r`, `[\*]=6` the key `*`. just-bash's declare cut the key at the first `=` and kept backslashes.
export default {
  title: 'declare -A h=([k=v]=x [\\*]=y): the key runs to its ], backslashes quote',
  upstream: 'src/interpreter/builtins/declare-array-parsing.ts parseAssocArrayLiteral: read an unquoted key up to "]" (not "="), taking a backslash as quoting the next character',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'e[r]===o&&r++}else for(;r<e.length&&e[r]!=="]"&&e[r]!=="=";)s+=e[r],r++;for(;r<e.length&&e[r]!=="]";)r++;',
      replace: 'e[r]===o&&r++}else for(;r<e.length&&e[r]!=="]";)e[r]==="\\\\"&&r+1<e.length&&r++,s+=e[r],r++;for(;r<e.length&&e[r]!=="]";)r++;',
    },
  ],
};
