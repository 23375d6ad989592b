// `!(pattern)` is an extended pattern when it is a word of a command or a `case` pattern (`ls -d !(*.txt)`,
// `case $f in !(x*))`): bash's manual, "Pattern Matching". At the start of a command `!(cmd)` stays the `!` reserved
// word before a subshell (what bash reads with extglob off), unless a `)` or `|` follows it at once (a case
// pattern written on its own line). just-bash always lexed a word-initial `!` as the
// reserved word, so `!(…)` as an argument or pattern was a syntax error. (Whether extglob is on when bash reads the
// line is checked by the shell engine, which reports bash's syntax error when it is not.)
export default {
  title: 'a !(pattern) word is an extended pattern outside command position',
  upstream: 'src/parser/lexer.ts nextToken: for "!" followed by "(", read a word (extglob) unless the previous token starts a command (none, newline, ;, &, &&, ||, |, (, {, !, then/do/else/elif/if/while/until/time) and no ) or | follows its closing paren',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'i==="!"?o==="="?(this.pos=n+2,this.column=s+2,this.makeToken(E.WORD,"!=",n,r,s))',
      replace: 'i==="!"?o==="="?(this.pos=n+2,this.column=s+2,this.makeToken(E.WORD,"!=",n,r,s)):o==="("&&(this.tokens.length>0&&![E.NEWLINE,E.SEMICOLON,E.AMP,E.AND_AND,E.OR_OR,E.PIPE,E.PIPE_AMP,E.LPAREN,E.LBRACE,E.BANG,E.THEN,E.DO,E.ELSE,E.ELIF,E.IF,E.WHILE,E.UNTIL,E.TIME].includes(this.tokens[this.tokens.length-1].type)||(()=>{let d=0,j=n+1;for(;j<this.input.length;j++){let c=this.input[j];if(c==="\\\\"){j++;continue}if(c==="(")d++;else if(c===")"&&--d===0)break}return this.input[j+1]===")"||this.input[j+1]==="|"})())?this.readWord(n,r,s)',
    },
  ],
};
