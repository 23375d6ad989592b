// An arithmetic expansion is written back as it was written (`$((10#$n))`, which just-bash's parser keeps only as
// text, was written `$((NaN$n))`), and one that does not parse stays an error: `$((1 +))` was written `$((+))`,
// which gave 0, and `$(( 08 ))` or `$(( 2#12 ))` (a number too great for its base, which the parser made NaN) was
// worth 0 too. Bash's manual, "Arithmetic Expansion" ("If the expression is invalid, Bash prints a message
// indicating failure and no substitution occurs"). The shell engine writes scripts back to text before running
// them. The parse makes the first such error in the tree the expression's root (an error below the root, `1 + (2 *)`,
// was not seen at all), so evaluating it fails; arith-error-ends-line words the message as bash does.
export default {
  title: 'an arithmetic expansion is written back as written, and one that does not parse stays an error',
  upstream: 'src/parser/arithmetic-parser.ts parseArithmeticExpression: when the tree holds an ArithSyntaxError (or a NaN number: a value too great for its base) make it the root, with the source text; src/ast/serializer.ts: write an ArithSyntaxError and an arithmetic expansion as their source text',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'return{type:"ArithmeticExpression",expression:r,originalText:t}',
      replace:
        'let F=z=>z&&typeof z=="object"?z.type==="ArithSyntaxError"||z.type==="ArithNumber"&&Number.isNaN(z.value)?z:Object.values(z).reduce((a,v)=>a||F(v),null):null,E=F(r);if(E){let K=(n.match(/\\b0[0-7]*[89]\\w*|\\b\\d+#\\w*/)??[n.trim()])[0];r=E.type==="ArithNumber"?{type:"ArithSyntaxError",errorToken:K,message:"value too great for base"}:E,r.spzText=t}return{type:"ArithmeticExpression",expression:r,originalText:t}',
    },
    {
      find: 'if(o)return{type:"ArithmeticExpression",originalText:t,expression:{type:"ArithSyntaxError",errorToken:o,',
      replace: 'if(o)return{type:"ArithmeticExpression",originalText:t,expression:{type:"ArithSyntaxError",spzText:t,errorToken:o,',
    },
    { find: 'case"ArithSyntaxError":return e.errorToken;', replace: 'case"ArithSyntaxError":return e.spzText??e.errorToken;' },
    // A word's and a double-quoted part's $((…)): the source text.
    {
      find: 'case"ArithmeticExpansion":return`$((${pe(e.expression.expression)}))`;case"ProcessSubstitution"',
      replace: 'case"ArithmeticExpansion":return`$((${e.expression.originalText??pe(e.expression.expression)}))`;case"ProcessSubstitution"',
    },
    {
      find: 'case"ArithmeticExpansion":return`$((${pe(e.expression.expression)}))`;default:return Zr(e,!1)}',
      replace: 'case"ArithmeticExpansion":return`$((${e.expression.originalText??pe(e.expression.expression)}))`;default:return Zr(e,!1)}',
    },
  ],
};
