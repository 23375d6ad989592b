// A word shaped like an assignment is an ordinary word in a `case` word or pattern (`case $1 in --*=*|name=*) ...`,
// `case a=b in`) and in a `for` list (`for kv in a=1 b=2`): the grammar takes a WORD there (POSIX "Case Conditional
// Construct", "The for Loop"; an assignment is recognised only before a command name). just-bash's lexer typed
// `name=*` as an assignment token, which these parsers refused with "syntax error near unexpected token", failing
// the whole script before it ran.
export default {
  title: 'a case word or pattern, or a for word, may look like an assignment',
  upstream: 'src/parser/compound-parser.ts parseCase/parseCaseItem/parseFor: accept an ASSIGNMENT_WORD token wherever a word is taken',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'e.expect(E.CASE),e.isWord()||e.error("Expected word after \'case\'")',
      replace: 'e.expect(E.CASE),e.isWord()||e.check(E.ASSIGNMENT_WORD)||e.error("Expected word after \'case\'")',
    },
    {
      find: 'function $d(e){e.check(E.LPAREN)&&e.advance();let t=[];for(;e.isWord()&&',
      replace: 'function $d(e){e.check(E.LPAREN)&&e.advance();let t=[];for(;(e.isWord()||e.check(E.ASSIGNMENT_WORD))&&',
    },
    {
      find: 'for(e.advance(),i=[];!e.check(E.SEMICOLON,E.NEWLINE,E.DO,E.EOF)&&e.isWord();)i.push(e.parseWord());',
      replace: 'for(e.advance(),i=[];!e.check(E.SEMICOLON,E.NEWLINE,E.DO,E.EOF)&&(e.isWord()||e.check(E.ASSIGNMENT_WORD));)i.push(e.parseWord());',
    },
  ],
};
