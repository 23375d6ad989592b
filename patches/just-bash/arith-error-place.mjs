// An arithmetic command's error inside a function names the function's place as every other error there does
// (`environment: line 3: ((: 2/0 : division by 0 …` for a function a `bash -c` string defined, the script's name in a
// script file); just-bash always wrote `bash: line N:`.
export default {
  title: "(( ))'s errors name the place of the function they happen in",
  upstream: 'src/interpreter/interpreter.ts executeArithmeticCommand (the error message goes through the same place naming as other errors)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'return D(_jbArithError(this.ctx,"((: ",(t.expression.originalText??"").replace(/^\\s+/,""),n),1)',
      replace: 'return D(__jbPlace(this.ctx,_jbArithError(this.ctx,"((: ",(t.expression.originalText??"").replace(/^\\s+/,""),n)),1)',
    },
  ],
};
