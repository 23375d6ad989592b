// An arithmetic expansion that does not parse (`$((1 +))`) stays an error when the script is written back out as
// text (spritzer serializes the parsed script to stream its output): the serializer wrote only the error token,
// `$((+))`, which is a valid expression worth 0, so `echo $((1 +))` printed 0 instead of failing with bash's
// message; a number too great for its base (`$(( 08 ))`) became `$((NaN))`, 0 too. The parse makes such an error the
// expression's root, with the expression's text, and the serializer writes that text.
export default {
  title: 'an arithmetic syntax error survives serialization (echo $((1 +)) fails, not prints 0)',
  upstream: 'src/parser/arithmetic-parser.ts parseArithmeticExpression: when the tree holds an ArithSyntaxError (or a NaN number: a value too great for its base), make it the root with the expression text (sourceText) and bash\'s "TEXT: " prefix on the message; src/transform/serialize.ts serializeArithExpr ArithSyntaxError: write sourceText when present',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'return{type:"ArithmeticExpression",expression:r,originalText:t}}function je(',
      replace:
        'let F=z=>z&&typeof z=="object"?z.type==="ArithSyntaxError"||z.type==="ArithNumber"&&Number.isNaN(z.value)?z:Object.values(z).reduce((a,v)=>a||F(v),null):null,E=F(r);if(E){let K=(n.match(/\\b0[0-7]*[89]\\w*|\\b\\d+#\\w*/)??[n.trim()])[0];r=E.type==="ArithNumber"?{type:"ArithSyntaxError",errorToken:K,message:`${K}: value too great for base (error token is "${K}")`,sourceText:n}:{...E,message:E.message.startsWith("syntax error")?`${n.trim()}: ${E.message}`:E.message,sourceText:n}}return{type:"ArithmeticExpression",expression:r,originalText:t}}function je(',
    },
    {
      // Text left over after a whole expression (`$((1 1))`): the same.
      find: 'if(o)return{type:"ArithmeticExpression",originalText:t,expression:{type:"ArithSyntaxError",errorToken:o,',
      replace: 'if(o)return{type:"ArithmeticExpression",originalText:t,expression:{type:"ArithSyntaxError",sourceText:n,errorToken:o,',
    },
    {
      find: 'case"ArithSyntaxError":return e.errorToken;',
      replace: 'case"ArithSyntaxError":return e.sourceText??e.errorToken;',
    },
  ],
};
