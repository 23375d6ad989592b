// A command missing where bash's grammar needs one is a syntax error, named by the token found instead:
// `if then fi` (`then'), `while do …` (`do'), `( )` (`)'), `{ }` (`}'), `a; ; b` (`;'), `a | | b` (`|'),
// `a && && b` (`&&'). Bash's manual, "Shell Syntax"/"Shell Commands"; just-bash accepted most of these as an empty
// command (or named the wrong token), so a broken script ran.
const near = (who) => `${who}.error(\`syntax error near unexpected token \\\`\${${who}.current().value}'\`)`;
export default {
  title: 'an empty condition, body, list element or pipeline stage is a syntax error',
  upstream: 'src/parser/compound-parser.ts (if/elif/while/until conditions, ( ) and { } bodies): an empty compound list is an error at the current token; src/parser/parser.ts skipSeparators: a second ";" with no command before it is an error; parsePipeline/parseStatement: a "|" or "&&"/"||" must be followed by a command',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'let n=[],r=e.parseCompoundList();e.expect(E.THEN);', replace: `let n=[],r=e.parseCompoundList();r.length===0&&${near('e')};e.expect(E.THEN);` },
    { find: 'e.advance();let a=e.parseCompoundList();e.expect(E.THEN);', replace: `e.advance();let a=e.parseCompoundList();a.length===0&&${near('e')};e.expect(E.THEN);` },
    { find: 'e.expect(E.WHILE);let n=e.parseCompoundList();', replace: `e.expect(E.WHILE);let n=e.parseCompoundList();n.length===0&&${near('e')};` },
    { find: 'e.expect(E.UNTIL);let n=e.parseCompoundList();', replace: `e.expect(E.UNTIL);let n=e.parseCompoundList();n.length===0&&${near('e')};` },
    { find: 'e.expect(E.LPAREN);let n=e.parseCompoundList();', replace: `e.expect(E.LPAREN);let n=e.parseCompoundList();n.length===0&&${near('e')};` },
    { find: 'e.expect(E.LBRACE);let n=e.parseCompoundList();', replace: `e.expect(E.LBRACE);let n=e.parseCompoundList();n.length===0&&${near('e')};` },
    { find: 'skipSeparators(t=!0){for(;;){', replace: 'skipSeparators(t=!0){this._semis=0;for(;;){' },
    {
      find: 'if(this.check(E.SEMICOLON,E.COMMENT)){this.advance();continue}',
      replace: 'if(this.check(E.SEMICOLON,E.COMMENT)){this.check(E.SEMICOLON)&&this._semis++>0&&this.error("syntax error near unexpected token `;\'");this.advance();continue}',
    },
    {
      find: 'let l=this.advance();this.skipNewlines(),o.push(l.type===E.PIPE_AMP);let c=this.parseCommand();',
      replace: `let l=this.advance();this.skipNewlines(),o.push(l.type===E.PIPE_AMP),this.isCommandStart()||${near('this')};let c=this.parseCommand();`,
    },
    {
      find: 'r.push(l.type===E.AND_AND?"&&":"||"),this.skipNewlines();let c=this.parsePipeline();',
      replace: `r.push(l.type===E.AND_AND?"&&":"||"),this.skipNewlines(),this.isCommandStart()||${near('this')};let c=this.parsePipeline();`,
    },
  ],
};
