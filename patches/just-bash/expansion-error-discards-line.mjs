// An arithmetic error in an expansion (`echo $((1/0)); echo "status=$?"`) makes bash give up the rest of the line it
// is running: the commands after it on that line do not run, `$?` is 1, and the script goes on with the next line
// (bash reads and runs a script line by line, and such an error returns to its top level). just-bash failed only
// the command and went on with the next one on the same line.
export default {
  title: 'an arithmetic expansion error discards the rest of its line',
  upstream: 'src/interpreter/interpreter.ts executeScript: after a statement fails with an ArithmeticError, skip the statements that start on the same line',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async executeScript(t){this.assertDefenseContext("execution");let n=0,r=new Vt(this.ctx.executionScope,"script");for(let s of t.statements)try{',
      replace:
        'async executeScript(t){this.assertDefenseContext("execution");let n=0,r=new Vt(this.ctx.executionScope,"script"),__jbSkip;for(let s of t.statements){let __jbLine=s.pipelines?.[0]?.commands?.[0]?.line;if(__jbSkip!==void 0&&__jbLine===__jbSkip)continue;__jbSkip=void 0;try{',
    },
    {
      find: 'if(i instanceof ce){r.append("stdout",i.stdout,i.internalOutputAccounting.stdout),r.append("stderr",i.stderr,i.internalOutputAccounting.stderr),n=1,this.ctx.state.lastExitCode=n,this.ctx.state.env.set("?",String(n));continue}',
      replace: 'if(i instanceof ce){r.append("stdout",i.stdout,i.internalOutputAccounting.stdout),r.append("stderr",i.stderr,i.internalOutputAccounting.stderr),n=1,this.ctx.state.lastExitCode=n,this.ctx.state.env.set("?",String(n)),__jbSkip=__jbLine;continue}',
    },
    {
      find: 'throw i instanceof Te&&i.prependOutput(r.stdout,r.stderr),i}return{...r.build(n),env:Wt(this.ctx.state.env)}}',
      replace: 'throw i instanceof Te&&i.prependOutput(r.stdout,r.stderr),i}}return{...r.build(n),env:Wt(this.ctx.state.env)}}',
    },
  ],
};
