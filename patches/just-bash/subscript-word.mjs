// A word like `a[ x` or `c[x y]` is split at its blanks like any other (bash prints `<a[><x>`); only an assignment
// `name[subscript]=value` may hold blanks and `;` in its subscript (`a[1 + 1]=x`). Bash's manual, "Arrays" and
// "Word Splitting". just-bash read every `name[` as the start of a subscript and took everything up to the next `]`
// on the line into one word, so `echo a[ x; echo [b]` printed `a[ x; echo [b]`. Where a command's name may stand
// (where an assignment may), bash reads `name[` up to the matching `]` whatever lies between (`x[a b]` is a command
// named so; `x[; echo hi` with no `]` before the end is a syntax error: unexpected EOF while looking for matching
// `]'), as its parse_matched_pair does.
export default {
  title: 'name[ starts a subscript that may hold blanks only in an assignment (a ]= or ]+= follows)',
  upstream: 'src/parser/lexer.ts readWord: enter subscript mode at "name[" only when the matching "]" on the same line is followed by "=" or "+=", or in command position (after a separator, a reserved word or an assignment) up to the matching "]", a syntax error when none comes',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(y==="["&&b===0){if(/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(u)){',
      replace: 'if(y==="["&&b===0){if(/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(u)&&(()=>{let d=0,j=o;for(;j<i&&s[j]!=="\\n";j++){if(s[j]==="\\\\"){j++;continue}if(s[j]==="[")d++;else if(s[j]==="]"&&--d===0)break}if(s[j+1]==="="||s[j+1]==="+"&&s[j+2]==="=")return!0;let P=this.tokens[this.tokens.length-1];if(P&&![E.NEWLINE,E.SEMICOLON,E.AMP,E.PIPE,E.PIPE_AMP,E.AND_AND,E.OR_OR,E.BANG,E.LPAREN,E.LBRACE,E.IF,E.THEN,E.ELSE,E.ELIF,E.WHILE,E.UNTIL,E.DO,E.TIME,E.ASSIGNMENT_WORD].includes(P.type))return!1;for(d=0,j=o;j<i;j++){if(s[j]==="\\\\"){j++;continue}if(s[j]==="[")d++;else if(s[j]==="]"&&--d===0)return!0}throw new Ye("unexpected EOF while looking for matching `]\'",c,l)})()){',
    },
  ],
};
