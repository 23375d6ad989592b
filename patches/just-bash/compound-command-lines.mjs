// Every compound command (`if`, `for`, `while`, `until`, `case`, `( … )`, `{ …; }`, a function definition) records
// the line of its first word, as simple commands already did: a script written back to text can then put each
// command on the line it had (bash's `$LINENO` and `line N:` count those lines).
export default {
  title: 'compound commands carry the line they start on',
  upstream: 'src/parser/parser.ts parseCommand: set `line` on the node a compound-command parser returns to the line of its first token',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'parseCommand(){if(this.currentTokenJoinsProcessSubstitution())return yi(this);',
      replace: 'parseCommand(){let _l=this.current().line,_c=this._spzParseCommand();return _c&&_c.line===void 0&&(_c.line=_l),_c}_spzParseCommand(){if(this.currentTokenJoinsProcessSubstitution())return yi(this);',
    },
  ],
};
