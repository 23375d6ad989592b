// With `set -x` bash traces an arithmetic command as `(( TEXT ))`, TEXT being what was written between the
// parentheses (its spaces kept: `(( 1 + 2 ))` traces as `((  1 + 2  ))`) after parameter, command and arithmetic
// expansion (`(( $y * 2 ))` → `((  3 * 2  ))`). The parser keeps that text as the expression's `originalText`
// (which the serializer writes back, so the engine's rewrite to text keeps it; it was the tokens joined by single
// spaces). just-bash traced nothing for `((`.
export default {
  title: 'set -x traces (( … )) with its text as written',
  upstream: 'src/parser/parser.ts parseArithmeticCommand: keep the source text between (( and )) as originalText; src/interpreter/interpreter.ts executeArithmeticCommand: when xtrace is on, trace PS4 + "(( " + expanded text + " ))"',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'o||this.expect(E.DPAREN_END);let a=this.parseArithmeticExpression(n.trim()),l=this.parseOptionalRedirections();return M.arithmeticCommand(a,l,this.getSourceLine(t))}',
      replace:
        'o||this.expect(E.DPAREN_END);let __c=this.tokens[this.pos-1],__raw=typeof this._input=="string"&&__c?.type===E.DPAREN_END&&__c.start>=t.end?this._input.slice(t.end,__c.start):void 0;' +
        'let a=this.parseArithmeticExpression(n.trim());__raw!==void 0&&(a.originalText=__raw);let l=this.parseOptionalRedirections();return M.arithmeticCommand(a,l,this.getSourceLine(t))}',
    },
    {
      find: 'async executeArithmeticCommand(t){return t.line!==void 0&&(this.ctx.state.currentLine=t.line),nt(this.ctx,t.redirections,"",async()=>{try{',
      replace:
        'async executeArithmeticCommand(t){return t.line!==void 0&&(this.ctx.state.currentLine=t.line),nt(this.ctx,t.redirections,"",async()=>{try{' +
        'if(this.ctx.state.options.xtrace){let raw=t.expression.originalText??pe(t.expression.expression),x=await se(this.ctx,new Q().parseWordFromString(raw,!1,!1,!1,!0));this.ctx.state.expansionStderr=(this.ctx.state.expansionStderr||"")+`${await Ju(this.ctx)}(( ${x} ))\\n`}',
    },
  ],
};
