// A word like `a[ x` or `c[x y]` is split at its blanks like any other (bash prints `<a[><x>`); only an assignment
// `name[subscript]=value` may hold blanks and `;` in its subscript (`a[1 + 1]=x`). Bash's manual, "Arrays" and
// "Word Splitting". just-bash read every `name[` as the start of a subscript and took everything up to the next `]`
// on the line into one word, so `echo a[ x; echo [b]` printed `a[ x; echo [b]`.
export default {
  title: 'name[ starts a subscript that may hold blanks only in an assignment (a ]= or ]+= follows)',
  upstream: 'src/parser/lexer.ts readWord: enter subscript mode at "name[" only when the matching "]" on the same line is followed by "=" or "+="',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(y==="["&&b===0){if(/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(u)){',
      replace: 'if(y==="["&&b===0){if(/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(u)&&(()=>{let d=0,j=o;for(;j<i&&s[j]!=="\\n";j++){if(s[j]==="\\\\"){j++;continue}if(s[j]==="[")d++;else if(s[j]==="]"&&--d===0)break}return s[j+1]==="="||s[j+1]==="+"&&s[j+2]==="="})()){',
    },
  ],
};
