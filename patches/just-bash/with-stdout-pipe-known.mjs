// A simple command knows whether its standard output is a pipe (it runs in a pipeline stage before the last, in an
// input process substitution or a coprocess, or in a shell whose standard output is one, and its own redirections do
// not send it elsewhere) and which path its own `<`
// reads standard input from (`/dev/zero` included; else what its enclosing command or the shell that started it
// read from, unless it reads a pipe). A program that writes without end (`yes`, `cat /dev/zero`) stops
// only when its reader closes the pipe or a signal ends it: the stages here run one after the other, so such a writer
// into a pipe writes a bounded amount and dies of SIGPIPE, and into anything else it waits for the signal (`timeout`,
// `kill`, the exec's own limits) as the real one runs until then (machines/memory/shell/endless-output.ts).
// The engine's own output-sink redirections (`/dev/.spritzer/…`) are not the script's: a command whose stdout is
// one is told which (`spzStdoutSink`), so that it can write there before it waits.
const helper =
  // [stdout is a pipe, the engine's output sink its stdout goes to (the last of its own stdout redirections, else
  // its enclosing command's or its shell's when it writes to no pipe)]
  'function __jbOutPipe(e,t,n){let own=!1,mine=!1,sink;t.forEach((r,s)=>{let k=n.get(s),o=!1;if(r.fdVariable)return;switch(r.operator){case">":case">|":case">>":case">&":o=(r.fd??1)===1;break;case"&>":case"&>>":o=!0;break;case"<>":o=r.fd===1}if(!o)return;let eng=typeof k=="string"&&k.startsWith("/dev/.spritzer/");sink=eng?k:void 0;eng||(own=!0);mine=!0});let pipe=!own&&(!!e.state.spzPipeStage||!!e.state.spzStdoutIsPipe);return[pipe,mine?sink:pipe?void 0:e.state.spzOutSink]}' +
  'function __jbInPath(e,t,n){let i;t.forEach((r,s)=>{let k=n.get(s);if(k===void 0||r.target?.type==="HereDoc"||r.fdVariable)return;(r.operator==="<"||r.operator==="<>")&&(r.fd??0)===0&&(i=k)});return i===void 0?void 0:e.fs.resolvePath(e.state.cwd,i)}';
export default {
  title: 'a command knows whether its standard output is a pipe and which path its own `<` reads',
  upstream: 'src/interpreter (simple command execution, the command context and exec): pass "stdout is a pipe" and the stdin redirection path to the command and to the shells it starts',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'this.ctx.state.spzOutFile=F.out,this.ctx.state.spzInFile=F.in;try{return await this.runCommand(u,f,d,n,!1,!1,g,y)}finally{this.ctx.state.spzOutFile=O,this.ctx.state.spzInFile=I}',
      replace: 'this.ctx.state.spzOutFile=F.out,this.ctx.state.spzInFile=F.in;let OP=this.ctx.state.spzOutPipe,OS=this.ctx.state.spzOutSink,IP=this.ctx.state.spzInPath;[this.ctx.state.spzOutPipe,this.ctx.state.spzOutSink]=__jbOutPipe(this.ctx,t.redirections,b.targets),this.ctx.state.spzInPath=__jbInPath(this.ctx,t.redirections,b.targets)??IP;try{return await this.runCommand(u,f,d,n,!1,!1,g,y)}finally{this.ctx.state.spzOutFile=O,this.ctx.state.spzInFile=I,this.ctx.state.spzOutPipe=OP,this.ctx.state.spzOutSink=OS,this.ctx.state.spzInPath=IP}',
    },
    {
      find: 'spzOutFile:i.state.spzOutFile,spzInFile:i.state.spzInFile,',
      replace: 'spzOutFile:i.state.spzOutFile,spzInFile:i.state.spzInFile,spzStdoutPipe:i.state.spzOutPipe===!0,spzStdoutSink:i.state.spzOutSink,spzInPath:i.state.spzInPath,',
    },
    {
      find: 'exec:(v,k)=>i.execFn(v,{...__jbChildEnv(k,h),spzParentPid:i.state.spzExecParent??i.state.bashPid},!1)',
      replace: 'exec:(v,k)=>i.execFn(v,{...__jbChildEnv(k,h),spzParentPid:i.state.spzExecParent??i.state.bashPid,spzStdoutPipe:i.state.spzOutPipe===!0,spzStdoutSink:i.state.spzOutSink,spzInPath:k?.stdin!==void 0&&k.stdin===d?i.state.spzInPath:void 0},!1)',
    },
    {
      find: 'stdin:d,stdinKind:"bytes",spzParentPid:i.state.spzExecParent??i.state.bashPid},!0)',
      replace: 'stdin:d,stdinKind:"bytes",spzParentPid:i.state.spzExecParent??i.state.bashPid,spzStdoutPipe:i.state.spzOutPipe===!0,spzStdoutSink:i.state.spzOutSink,spzInPath:i.state.spzInPath},!0)',
    },
    {
      find: 'let m={...this.state,...(u.spzParentPid!==void 0?{virtualPpid:u.spzParentPid}:{}),',
      replace: 'let m={...this.state,...(u.spzParentPid!==void 0?{virtualPpid:u.spzParentPid}:{}),spzStdoutIsPipe:u.spzStdoutPipe===!0,spzOutPipe:void 0,spzOutSink:u.spzStdoutSink,spzInPath:u.spzInPath,',
    },
    {
      // A later stage reads the pipe, not what the pipeline's shell read from.
      find: 'let _ps=e.state.spzPipeStage,_bp=e.state.bashPid,_xp=e.state.spzExecParent;e.state.spzPipeStage=_ps||u&&!S;',
      replace: 'let _ps=e.state.spzPipeStage,_bp=e.state.bashPid,_xp=e.state.spzExecParent,_ip=e.state.spzInPath;e.state.spzPipeStage=_ps||u&&!S;g>0&&(e.state.spzInPath=void 0);',
    },
    { find: 'finally{e.state.spzPipeStage=_ps,e.state.bashPid=_bp,', replace: 'finally{e.state.spzPipeStage=_ps,e.state.spzInPath=_ip,e.state.bashPid=_bp,' },
    {
      // What an input process substitution `<(…)` and a coprocess write goes to a pipe too.
      find: 'if(t.direction==="input"){let o=await zc(e,t.body,void 0);',
      replace: 'if(t.direction==="input"){let _pp=e.state.spzStdoutIsPipe,o;e.state.spzStdoutIsPipe=!0;try{o=await zc(e,t.body,void 0)}finally{e.state.spzStdoutIsPipe=_pp}',
    },
    {
      find: 'let a=await zc(e,M.script([M.statement([M.pipeline([c.body])])]),input),o=xt(a)',
      replace: 'let _pp=e.state.spzStdoutIsPipe,a;e.state.spzStdoutIsPipe=!0;try{a=await zc(e,M.script([M.statement([M.pipeline([c.body])])]),input)}finally{e.state.spzStdoutIsPipe=_pp}let o=xt(a)',
    },
    { find: 'async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){', replace: `${helper}async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){` },
  ],
};
