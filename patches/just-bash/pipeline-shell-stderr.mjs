// After `exec 2>&1` the shell's stderr is a copy of the stdout it had then, not the pipe a pipeline stage writes
// into: in `exec 2>&1; ls nope | wc -l` the message reaches the shell's stdout and `wc` counts 0 lines, and with
// `set -x` the first stage's trace is not fed to the next. just-bash resolved the shell's fd 2 against each
// command's current stdout, so a stage's messages and traces went down the pipe. In a stage before the last, a
// command now keeps what the shell's fd 2 receives as stderr, and the pipeline sends the stages' stderr where the
// shell's fd 2 goes once it ends, before the last stage's output.
export default {
  title: 'the shell\'s stderr duplicated from stdout does not feed a pipe',
  upstream: 'src/interpreter/redirections.ts applyRedirections: in a pipeline stage before the last, a shell-level fd 2 that duplicates fd 1 stays stderr; src/interpreter/pipeline-execution.ts: route the earlier stages\' stderr through the shell\'s file descriptors after the pipeline',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'b=S=>{let v=i.get(S)??tt(e,S);',
      replace: 'b=S=>{if(S===2&&e.state.spzPipeStage&&!n.some(r=>r.fd===2||r.fd==null&&(r.operator==="&>"||r.operator==="&>>"))){let q=tt(e,2);if(q?.kind==="dup-out"&&q.sourceFd===1)return null}let v=i.get(S)??tt(e,S);',
    },
    {
      find: 'e.state.commandCount=e.executionScope.chargeCommand(),N=await n(y,s)',
      replace: 'e.state.commandCount=e.executionScope.chargeCommand();let _ps=e.state.spzPipeStage;e.state.spzPipeStage=_ps||u&&!S;try{N=await n(y,s)}finally{e.state.spzPipeStage=_ps}',
    },
    {
      find: 'l&&(i={...i,stderr:l+i.stderr,',
      replace: 'if(l&&!e.state.spzPipeStage&&u){let _r=await rn(e,{stdout:"",stderr:l,exitCode:0},[],new Map,new Map,new Map);_r.stdout&&(i=_jbTraceJoin(_r,i),l=_r.stderr)}l&&(i={...i,stderr:l+i.stderr,',
    },
  ],
};
