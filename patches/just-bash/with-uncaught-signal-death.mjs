// A nested shell that a signal kills (its own `kill -HUP $$`, with no trap for it) runs its EXIT trap first, as bash
// does for every fatal signal but KILL, and still dies of the signal (status 128+n, whatever the trap's `exit`).
// The shell that ran it reports the death as a non-interactive bash does (jobs.c, notify_of_job_status): `Terminated`
// alone for TERM, nothing for INT and PIPE, else `bash: line N:  PID Killed                  COMMAND` (the place as
// its other messages: `environment: line N:` in a function), and nothing when the command died in a pipeline, a
// command substitution, or as the last command of a `-c` script, which bash runs in its own process (the command
// shell-level.ts marks with `__spritzer_shlvl`, or the one command of an exec a program such as `timeout` made:
// `spzExecd`): then the shell itself died of the signal, and its parent reports it.
// A command's result says which signal killed it (`spzKilledBy`, `spzKilledPid`). The command is shown without the
// engine's output-sink redirections (`>| /dev/.spritzer/…`), its nested scripts' included.
const helper =
  'function __jbKilledReport(e,t,v){let n=v?.spzKilledBy;if(!n)return v;let{spzKilledBy:_k,spzKilledPid:p,outputOrder:_o,...r}=v;' +
  'if(e.state.spzExecd||t.assignments?.some(a=>a.name==="__spritzer_shlvl")){e.state.spzExecKilled=[n,p];return r}' +
  // (nor when the shell itself dies of the signal that killed it: `timeout` signals the whole process group)
  'let _d=e.state.signal?.aborted?e.state.signal.reason?.spzSignal:void 0;if(_d&&!e.state.traps?.get(_d))return r;' +
  'if(n===2||n===13||(e.substitutionDepth??0)>0||e.state.spzPipeStage)return r;' +
  'let T={1:"Hangup",3:"Quit",4:"Illegal instruction",5:"Trace/breakpoint trap",6:"Aborted",7:"Bus error",8:"Floating point exception",9:"Killed",10:"User defined signal 1",11:"Segmentation fault",12:"User defined signal 2",14:"Alarm clock",16:"Stack fault",24:"CPU time limit exceeded",25:"File size limit exceeded",26:"Virtual timer expired",27:"Profiling timer expired",31:"Bad system call"}[n]??`Signal ${n}`,' +
  'h=e.state.hiddenRedirections,c={...t,assignments:(t.assignments??[]).filter(a=>!a.name.startsWith("__spritzer_")),redirections:h?t.redirections.filter(x=>!x.target?.parts?.every?.(q=>q.type==="Literal")||!x.target.parts.map(q=>q.value).join("").startsWith(h)):t.redirections},' +
  'm=n===15?"Terminated\\n":__jbPlace(e,`bash: line ${e.state.currentLine}: ${String(p??e.state.nextVirtualPid??0).padStart(5)} ${T.padEnd(24)}${zd(c).replace(/ ?\\d?>\\| \\/dev\\/\\.spritzer\\/[\\w.-]+/g,"")}\\n`);return{...r,stderr:r.stderr+m}}';
export default {
  title: 'a nested shell killed by a signal runs its EXIT trap; its parent reports the death as bash does',
  upstream: 'src/interpreter: the EXIT trap on a fatal signal (not KILL); a result field for the signal that killed a command, and the non-interactive job-status message in the simple command that ran it (not in a pipeline, a substitution, or the exec-optimised last command)',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'if(!t?.action||X?._signal){if(X)throw X;return R}', replace: 'if(!t?.action||X?._signal&&X.exitCode===137){if(X)throw X;return R}' },
    { find: 'if(X){X.stdout+=y.stdout,X.stderr+=y.stderr,z&&(X.exitCode=y.exitCode);throw X}', replace: 'if(X){X.stdout+=y.stdout,X.stderr+=y.stderr,z&&!X._signal&&(X.exitCode=y.exitCode);throw X}' },
    {
      // The dying shell says nothing itself: its parent reports it.
      find: 'X=new G(128+g,"",({1:"Hangup\\n",3:"Quit\\n",6:"Aborted\\n",9:"Killed\\n",10:"User defined signal 1\\n",12:"User defined signal 2\\n",14:"Alarm clock\\n",15:"Terminated\\n"})[g]??"")',
      replace: 'X=new G(128+g,"","")',
    },
    {
      find: 'catch(y){if(y instanceof G)return l({...(m.groupStdin!==void 0?{spzStdinLeft:m.groupStdin.length}:{}),stdout:y.stdout,stderr:y.stderr,exitCode:y.spzShellStatus??y.exitCode,',
      replace: 'catch(y){if(y instanceof G)return l({...(m.groupStdin!==void 0?{spzStdinLeft:m.groupStdin.length}:{}),...(y._signal&&y.exitCode>128?{spzKilledBy:y.exitCode-128,spzKilledPid:m.bashPid}:{}),stdout:y.stdout,stderr:y.stderr,exitCode:y.spzShellStatus??y.exitCode,',
    },
    {
      // A signal the shell sent itself with its last command kills it here, where its EXIT trap still runs.
      find: 'let f=await _jbFlushTraps(I.ctx);',
      replace: 'let f={stdout:"",stderr:""};try{f=await _jbFlushTraps(I.ctx)}catch(y){if(!(y instanceof G)||X)throw y;R&&y.prependOutput(R.stdout,R.stderr),X=y}',
    },
    {
      // A shell layer that stands for a program's exec of its command (`timeout`'s) reports no death itself.
      find: 'spzStdoutIsPipe:u.spzStdoutPipe===!0,',
      replace: 'spzStdoutIsPipe:u.spzStdoutPipe===!0,spzExecd:u.spzExecd===!0,',
    },
    { find: 'N=await _jbTopLevel(new kr(k,m),S,m,s);', replace: 'N=await _jbTopLevel(new kr(k,m),S,m,s);m.spzExecKilled&&(N={...N,spzKilledBy:m.spzExecKilled[0],spzKilledPid:m.spzExecKilled[1]});' },
    { find: 'try{return await this.runCommand(u,f,d,n,!1,!1,g,y)}finally{this.ctx.state.spzOutFile=O,', replace: 'try{return __jbKilledReport(this.ctx,t,await this.runCommand(u,f,d,n,!1,!1,g,y))}finally{this.ctx.state.spzOutFile=O,' },
    { find: 'async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){', replace: `${helper}async function rn(e,t,n,r,s=new Map,i=new Map,o="bash",a=!1){` },
  ],
};
