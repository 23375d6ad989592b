// The expression of `$(( ))` undergoes command substitution before it is evaluated, and the output becomes part of
// the expression's text: `$(( $(printf '%s+' 1 2 3)0 ))` is `1+2+3+0`, 6; so does that of `(( ))` (bash's manual, "Arithmetic Expansion").
// just-bash evaluated each `$(…)` as an operand of its own, so output joined to the text around it (`…)0`) was a
// syntax error. Now an expression holding a command substitution is expanded as text first, as one holding `$name`
// already was.
export default {
  title: 'a $(…) in $(( )) is expanded into the expression\'s text before it is parsed',
  upstream: 'src/interpreter/expansion.ts ArithmeticExpansion and expandDollarVarsInArithText: expand command substitutions ($( … ), not $(( … ))) in the text too, then parse and evaluate the result',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(s&&/\\$[a-zA-Z_][a-zA-Z0-9_]*(?![{[(])/.test(s)){let o=await Bl(e,s)',
      replace: 'if(s&&/\\$[a-zA-Z_][a-zA-Z0-9_]*(?![{[(])|\\$\\((?!\\()/.test(s)){let o=await Bl(e,s)',
    },
    {
      find: 'if(t[r+1]==="("){let s=1,i=r+2;for(;i<t.length&&s>0;)t[i]==="("?s++:t[i]===")"&&s--,i++;n+=t.slice(r,i),r=i;continue}',
      replace: 'if(t[r+1]==="("){let s=1,i=r+2;for(;i<t.length&&s>0;)t[i]==="("?s++:t[i]===")"&&s--,i++;t[r+2]!=="("&&s===0?n+=await se(e,new Q().parseWordFromString(t.slice(r,i),!0,!1)):n+=t.slice(r,i),r=i;continue}',
    },
    {
      // The same in an arithmetic command: `(( y = $(echo 2)0 ))` sets 20.
      find: 'let n=await Y(this.ctx,t.expression.expression),r=be(n!==0);',
      // Under set -x the trace above already ran the substitutions and showed them: this run is not traced again.
      replace: 'let _s=t.expression.originalText,_x=this.ctx.state.options.xtrace,_p=this.ctx.state.expansionStderr,_e=_s&&/\\$\\((?!\\()/.test(_s)?(this.ctx.state.options.xtrace=!1,await Bl(this.ctx,_s).finally(()=>{this.ctx.state.options.xtrace=_x,_x&&(this.ctx.state.expansionStderr=_p)})):null,n=await Y(this.ctx,_e!==null?re(new Q,_e).expression:t.expression.expression),r=be(n!==0);',
    },
  ],
};
