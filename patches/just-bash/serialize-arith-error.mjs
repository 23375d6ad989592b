// An arithmetic expansion is written back as it was written (`$((10#$n))`, which just-bash's parser keeps only as
// text, was written `$((NaN$n))`), and one that does not parse (`$((1 +))`, written `$((+))`, which gave 0) still fails
// as bash does (`1 +: syntax error: operand expected`, the line abandoned). Bash's manual,
// "Arithmetic Expansion" ("If the expression is invalid, Bash prints a message indicating failure and no
// substitution occurs"). just-bash's serializer wrote only the error token (`$((+))`), which evaluates to 0, and the
// shell engine writes scripts back to text before running them.
export default {
  title: 'the serializer writes an arithmetic expansion as it was written',
  upstream: 'src/parser/arithmetic-parser.ts parseArithmeticExpression: keep the source text on an ArithSyntaxError; src/ast/serializer.ts: write it back',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'return{type:"ArithmeticExpression",expression:r,originalText:t}', replace: 'return r.type==="ArithSyntaxError"&&(r.spzText=t),{type:"ArithmeticExpression",expression:r,originalText:t}' },
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
