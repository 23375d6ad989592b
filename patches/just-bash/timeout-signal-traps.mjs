// `timeout` sends its signal (`-s`, default TERM) rather than ending its command outright: the abort carries the
// signal's name (`reason.spzSignal`), and what the command wrote before it is kept (GNU timeout passes its child's
// output through; its status stays 124, or with --preserve-status the child's own, `spzChildStatus`).
export default {
  title: 'timeout: the abort names its signal, and a timed-out command keeps its output and status',
  upstream: 'src/commands/timeout/timeout.ts: abort with the -s signal as the reason; on timeout return the command\'s own output (and status for --preserve-status)',
  file: 'dist/bundle/chunks/chunk-XV2V56NQ.js',
  edits: [
    { find: 'let i=0;for(let e=0;e<n.length;e++){let t=n[e];', replace: 'let i=0,_sg;for(let e=0;e<n.length;e++){let t=n[e];' },
    { find: 'else if(t==="-s"||t==="--signal")e++,i=e+1;', replace: 'else if(t==="-s"||t==="--signal")e++,i=e+1,_sg=n[e];' },
    {
      // timeout execs its command: the shell layer that runs it here reports no death of its own (patch
      // with-uncaught-signal-death: `spzExecd`).
      find: 's.exec(y([l[0]]),{cwd:s.cwd,signal:r.signal,stdin:s.stdin,stdinKind:"bytes",args:l.slice(1)})',
      replace: 's.exec(y([l[0]]),{cwd:s.cwd,signal:r.signal,stdin:s.stdin,stdinKind:"bytes",args:l.slice(1),spzExecd:!0})',
    },
    { find: 'u=h(()=>{c.abort()},g)', replace: 'u=h(()=>{c.abort({spzSignal:_sg??"TERM"})},g)' },
    {
      find: 'return p.timedOut?(await t.catch(()=>{}),{stdout:"",stderr:"",exitCode:124}):p.result',
      replace: 'if(p.timedOut){let q=await t.then(z=>z.result,()=>null);return{stdout:q?.stdout??"",stderr:q?.stderr??"",...(q?.stdoutKind?{stdoutKind:q.stdoutKind}:{}),exitCode:124,spzChildStatus:q?.exitCode}}return p.result',
    },
  ],
};
