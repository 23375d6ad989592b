// A nested shell (`timeout 5 bash -c '…'`) that `timeout` signals (the abort's `reason.spzSignal`, patch
// timeout-signal-traps) handles the signal as bash does: with a trap for it, the command running in the foreground
// (which got the signal too: timeout signals its whole process group) ends with 128+n and is reported as bash
// reports it (`Terminated`, `Hangup`…; nothing for INT), the trap runs before the next command, and the script goes
// on; without one the shell dies of the signal (as of its own `kill $$`: its EXIT trap runs, what it wrote stays);
// an ignored one (`trap '' TERM`) ends the foreground command with status 0 and the script goes on (@deviation: the
// command, which ignores it too, would have run to its end);
// KILL ends everything at once. A shell
// the signal ended without a trap has status 128+n (not the 124 of the exec's own time limit).
const NUMS = '{HUP:1,INT:2,QUIT:3,USR1:10,USR2:12,PIPE:13,ALRM:14,TERM:15}';
const helper =
  `function __jbSigNum(g){return ${NUMS}[g]??15}` +
  'async function __jbTrappedSignal(e,f){try{return await f()}catch(x){let s=e.state.signal,g=s?.aborted?s.reason?.spzSignal:void 0,t=g&&g!=="KILL"&&e.state.pendingSignals?e.state.traps?.get(g):void 0;if(!(x instanceof ze)||!g||g==="KILL"||!e.state.pendingSignals)throw x;let n=__jbSigNum(g);if(e.state.traps?._subshell){let X=new G(128+n,"","");throw X._signal=!0,X._subshellKill=!0,X}if(t&&t.action===""){e.state.signal=void 0;return{stdout:"",stderr:"",exitCode:0}}if(!t?.action){let X=new G(128+n,"","");throw X._signal=!0,X}e.state.signal=void 0,e.state.pendingSignals.push(g);return{stdout:"",stderr:n===2||n===13?"":`${{1:"Hangup",3:"Quit",10:"User defined signal 1",12:"User defined signal 2",14:"Alarm clock",15:"Terminated"}[n]}\\n`,exitCode:128+n}}}';
export default {
  title: 'a nested shell that timeout signals runs its trap for the signal (or its EXIT trap) as bash does',
  upstream: 'src/interpreter: an abort that names a signal is delivered to the shell\'s traps (the foreground command ends with 128+n, the trap runs, the script continues) instead of ending the execution',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'try{return __jbKilledReport(this.ctx,t,await this.runCommand(u,f,d,n,!1,!1,g,y))}',
      replace: 'try{return __jbKilledReport(this.ctx,t,await __jbTrappedSignal(this.ctx,()=>this.runCommand(u,f,d,n,!1,!1,g,y)))}',
    },
    {
      find: 'try{R=await I.executeScript(S)}catch(y){if(!(y instanceof G))throw y;X=y}',
      replace: 'try{R=await I.executeScript(S)}catch(y){let g=st.signal?.aborted?st.signal.reason?.spzSignal:void 0;if(d>0&&y instanceof ze&&g&&g!=="KILL"&&st.traps?.get("EXIT")?.action){y=new G(128+__jbSigNum(g),"",""),y._signal=!0}if(!(y instanceof G))throw y;X=y;X._signal&&st.signal?.reason?.spzSignal&&(st.signal=void 0)}',
    },
    {
      find: 'if(y instanceof ze)return l({stdout:y.stdout,stderr:y.stderr,exitCode:124,env:Xe(this.state.env,u.env)});',
      replace: 'if(y instanceof ze){let g=c.signal?.aborted?c.signal.reason?.spzSignal:void 0;return l({stdout:y.stdout,stderr:g?"":y.stderr,exitCode:g?128+(g==="KILL"?9:__jbSigNum(g)):124,...(g?{spzKilledBy:g==="KILL"?9:__jbSigNum(g)}:{}),env:Xe(this.state.env,u.env)})}',
    },
    {
      // A shell the signal reaches (a `bash -c` command) is waited for: it handles the signal itself (its traps), ends
      // its foreground command, and returns its result; any other command ends at once as before.
      find: 'p=new Promise(h=>{let m=()=>{n(),h({kind:"abort"})};',
      replace: 'p=new Promise(h=>{let m=()=>{let _g=!!i?.reason?.spzSignal&&/^(sh|bash|dash)$/.test(r);_g||n(),h({kind:_g?"signal":"abort"})};',
    },
    {
      find: 'try{let h=await Promise.race([d,p]);if(h.kind==="result")return h.result;if(h.kind==="error")throw h.error;',
      replace: 'try{let h=await Promise.race([d,p]);if(h.kind==="signal")h=await d;if(h.kind==="result")return h.result;if(h.kind==="error")throw h.error;',
    },
    {
      // Between statements (a loop of builtins runs no foreground command the signal could end) the same: the trap is
      // pending, an ignored signal is ignored, and without a trap the shell dies of it.
      find: 'if(this.assertDefenseContext("statement"),this.ctx.state.signal?.aborted)throw new ze;',
      replace: 'if(this.assertDefenseContext("statement"),this.ctx.state.signal?.aborted){let _g=this.ctx.state.signal.reason?.spzSignal;if(!_g||_g==="KILL"||!this.ctx.state.pendingSignals)throw new ze;let _t=this.ctx.state.traps?._subshell?void 0:this.ctx.state.traps?.get(_g);if(_t)this.ctx.state.signal=void 0,_t.action&&this.ctx.state.pendingSignals.push(_g);else{let X=new G(128+__jbSigNum(_g),"","");throw X._signal=!0,X._subshellKill=!!this.ctx.state.traps?._subshell,X}}',
    },
    { find: 'async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){', replace: `${helper}async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){` },
  ],
};
