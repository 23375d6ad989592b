// A subshell `( … )` that signals itself (`kill -TERM $BASHPID`) dies of the signal once `kill` is done, as bash's
// forked subshell does: its status is 128+n and the shell reports it as it reports any child a signal killed
// (`Terminated`; `bash: line N:   PID Killed                  ( kill -KILL $BASHPID )`; patch
// with-uncaught-signal-death). A trap the subshell set for the signal runs instead, and the subshell goes on; an
// ignored one (`trap '' TERM`) is ignored. The shell engine's `kill` says which signal it sent to the subshell
// running it (`spzSelfSignal`; it learns `$BASHPID` from the command context's `spzBashPid`).
const helper =
  'async function __jbSelfKill(e,v){let n=v?.spzSelfSignal;if(!n)return v;let{spzSelfSignal:_s,...r}=v,nm={1:"HUP",2:"INT",3:"QUIT",10:"USR1",12:"USR2",13:"PIPE",14:"ALRM",15:"TERM"}[n],t=n!==9&&nm?e.state.traps?.get(nm):void 0;' +
  'if(t?.action){let y=await _jbRunTrap(e,t.action,r.exitCode);return{...r,stdout:r.stdout+y.stdout,stderr:r.stderr+y.stderr}}if(t)return r;let X=new G(128+n,r.stdout,r.stderr);throw X._signal=!0,X._subshellKill=!0,X}';
export default {
  title: 'a subshell that kills its own $BASHPID dies of the signal, reported as bash reports it',
  upstream: 'src/interpreter (subshell execution): a signal a subshell sends itself ends it with 128+n (or runs its trap), and the parent reports the death',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'spzCoprocStatus:(p)=>i.state.coprocStatus?.get(p),', replace: 'spzCoprocStatus:(p)=>i.state.coprocStatus?.get(p),spzBashPid:i.state.bashPid,' },
    { find: 'async function __jbTrappedSignal(e,f){try{return await f()}', replace: 'async function __jbTrappedSignal(e,f){try{return await __jbSelfKill(e,await f())}' },
    {
      find: 'a instanceof G||a instanceof Te||a instanceof We?(i.append("stdout",a.stdout,a.internalOutputAccounting.stdout),i.append("stderr",a.stderr,a.internalOutputAccounting.stderr),i.build(a.exitCode))',
      replace: 'a instanceof G||a instanceof Te||a instanceof We?(i.append("stdout",a.stdout,a.internalOutputAccounting.stdout),i.append("stderr",a.stderr,a.internalOutputAccounting.stderr),a._subshellKill?{...i.build(a.exitCode),spzKilledBy:a.exitCode-128,spzKilledPid:e.state.bashPid}:i.build(a.exitCode))',
    },
    {
      find: 'try{return await nt(e,t.redirections,n,l=>(Zo=s||n!==""||l.stdin!==void 0,_jbSubshell(e,()=>Om(e,t,l.stdin??n,r,s||l.stdin!==void 0))))}',
      // (reported inside its redirections, which keep no such field of a result)
      replace: 'try{return await nt(e,t.redirections,n,l=>(Zo=s||n!==""||l.stdin!==void 0,_jbSubshell(e,()=>Om(e,t,l.stdin??n,r,s||l.stdin!==void 0)).then(v=>__jbKilledReport(e,t,v))))}',
    },
    // The report names a compound command as bash prints it.
    { find: '${zd(c).replace(', replace: '${(t.type==="SimpleCommand"?zd(c):t.type==="Subshell"?El(c).replace(/^\\(\\s*([^]*?)\\s*\\)$/,"( $1 )"):El(c)).replace(' },
    { find: 'async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){', replace: `${helper}async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){` },
  ],
};
