// A `case` word or pattern shaped like an assignment (`case $1 in --*=*|name=*) ...`, `case a=b in`) is an
// ordinary word there: the grammar takes a WORD in both places (POSIX "Case Conditional Construct"; an assignment
// is recognised only before a command name). just-bash's lexer typed `name=*` as an assignment token, which the
// case parser refused with "syntax error near unexpected token", failing the whole script before it ran.
export default {
  title: 'a case word or pattern may look like an assignment',
  upstream: 'src/parser/compound-parser.ts parseCase/parseCaseItem: accept an ASSIGNMENT_WORD token wherever a word is taken',
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
  ],
};
