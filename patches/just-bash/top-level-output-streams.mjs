// An embedder that streams a script's output (spritzer gives each top-level command its own output redirections)
// can take what a top-level statement returned as soon as that statement ends (state.topLevelOutput), instead of
// with the whole script's result: what no command wrote itself (a trap's output, a subshell's EXIT trap) then
// comes out in the order bash prints it, not after everything else.
export default {
  title: 'a top-level statement\'s returned output can be taken as soon as the statement ends',
  upstream: 'src/interpreter/interpreter.ts Interpreter.executeScript: remember the outermost script; for its statements hand each result to an optional state.topLevelOutput callback instead of joining it into the script result',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // Only the embedder's own script: a nested execution (a `bash -c` a command runs) returns its output.
      find: 'cwd:p,previousDir:u.env?.OLDPWD??this.state.previousDir,',
      replace: 'topLevelOutput:s>0?void 0:this.state.topLevelOutput,cwd:p,previousDir:u.env?.OLDPWD??this.state.previousDir,',
    },
    {
      // The outermost script's builder hands each statement's result over instead of keeping it, and so the output
      // the statement loop appends itself (an expansion error's message, the line abandoned), in the same order
      // (the statement loop itself is expansion-error-discards-line's).
      find: 'async executeScript(t){this.assertDefenseContext("execution");let n=0,r=new Vt(this.ctx.executionScope,"script");',
      replace: 'async executeScript(t){this.assertDefenseContext("execution");this.ctx.state.topLevelScript??=t;let n=0,r=new Vt(this.ctx.executionScope,"script"),_ar=r.appendResult.bind(r),_ap=r.append.bind(r),_top=()=>this.ctx.state.topLevelOutput&&t===this.ctx.state.topLevelScript;r.appendResult=(i,k)=>_top()?this.ctx.state.topLevelOutput(i):_ar(i,k);r.append=(w,x,a,k)=>_top()?x&&this.ctx.state.topLevelOutput(w==="stdout"?{stdout:x,stderr:"",exitCode:0,stdoutKind:k}:{stdout:"",stderr:x,exitCode:0}):_ap(w,x,a,k);',
    },
  ],
};
