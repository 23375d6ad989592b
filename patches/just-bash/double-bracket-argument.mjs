// `[[` is a reserved word only where a command starts (bash's manual, "Reserved Words": "recognized as reserved
// when unquoted and the first word of a command"); as an argument it is an ordinary word, as `]]`, `{` and `}`
// already were: `echo a [[ b` prints `a [[ b`, `command -v [[` prints `[[`. just-bash's parser ended the simple
// command at `[[` and read a conditional command from there.
export default {
  title: '[[ as an argument is a word',
  upstream: 'src/parser/command-parser.ts parseSimpleCommand: in the argument loop take a DBRACK_START token as a literal word, as DBRACK_END, LBRACE and RBRACE are',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'else if(e.check(E.DBRACK_END)){let a=e.advance();s.push(e.parseWordFromString(a.value,!1,!1))}',
      replace: 'else if(e.check(E.DBRACK_END)||e.check(E.DBRACK_START)){let a=e.advance();s.push(e.parseWordFromString(a.value,!1,!1))}',
    },
  ],
};
