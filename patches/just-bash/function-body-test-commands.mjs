// A function's body is any compound command (bash's manual, "Shell Functions": `fname () compound-command
// [redirections]`), `[[ … ]]` and `(( … ))` among them: `f() [[ -n $1 ]]`, `g() (( $1 > 2 ))`. just-bash's parser
// took only `{ }`, `( )`, if, for, while, until and case there, and called the others a syntax error.
export default {
  title: 'a function body may be [[ ]] or (( ))',
  upstream: 'src/parser/parser.ts parseCompoundCommandBody: accept DBRACK_START (parseConditionalCommand) and DPAREN_START (parseArithmeticCommand)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(this.check(E.CASE))return Si(this,{skipRedirections:n});this.error("Expected compound command for function body")}',
      replace: 'if(this.check(E.CASE))return Si(this,{skipRedirections:n});if(this.check(E.DBRACK_START))return this.parseConditionalCommand();if(this.check(E.DPAREN_START)&&!this.dparenClosesWithSpacedParens())return this.parseArithmeticCommand();this.error("Expected compound command for function body")}',
    },
  ],
};
