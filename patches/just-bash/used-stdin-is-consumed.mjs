// Every command of a script, a `{ …; }` group, a loop or a function inherits the same open file description for its
// stdin (bash(1) "REDIRECTION", POSIX 2.9.1): what one command reads is gone for the next. `read -r a; cat > rest;
// read -r b` leaves `b` empty, `while read -r l; do cat >/dev/null; done < f` runs once, `x=$(head -n1)` takes the
// first line from the script's stdin. just-bash advanced the shared stdin (`state.groupStdin`) in `read` and
// `mapfile` only: every other command got the whole remaining input and left it in place.
//
// Now a command that ran on the shared stdin and read it (its context's `stdin` getter was used) consumes it: all of
// it, unless its result says how much it took (`internalStdinConsumed`, bytes: `head` on a regular file seeks back to
// just after the lines it printed, as GNU does). A command that never reads stdin (`echo`, `ls`, a command with file
// operands) leaves it. A subshell, a script run by path, and a child `bash`/`sh` (`execWithInheritedStdin`, which
// reports what it left as `spzStdinLeft`) run on the same stdin and hand back what they left. A command whose stdin
// was redirected (`cat < /dev/null`, an empty here-string) reads that, never the shared stdin.
export default {
  title: 'a command that reads the shell\'s shared stdin consumes what it read',
  upstream:
    'src/interpreter/command-resolution.ts runCommandViaPath: when the command read the inherited state.groupStdin (no stdin of its own), advance groupStdin (and its source fd) by result.internalStdinConsumed ?? everything; a redirected empty stdin is the command\'s own; subshell.ts / executeUserScript / Bash.exec: a child that ran on the inherited stdin hands back what it left',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // the helper: a child that ran on the shell's stdin `before` (undefined: a stdin of its own) left `after`
      find: 'async function kf(e,t,n,r,s,Zn){',
      replace:
        'function _jbSharedStdinLeft(e,before,after){before!==void 0&&after!==void 0&&after.length<before.length&&(e.state.groupStdin=before.slice(before.length-after.length))}' +
        'async function kf(e,t,n,r,s,Zn){',
    },
    {
      // a script run by path: its own stdin (a redirection, even an empty one), or the shell's, handed back
      find: 'let o=e.state.loopDepth,a=aa(e.state);e.state.parentHasLoopContext=o>0,e.state.loopDepth=0,e.state.bashPid=e.state.nextVirtualPid++,r&&(e.state.groupStdin=r),',
      replace:
        'let o=e.state.loopDepth,Za=aa(e.state),Zb=r!==void 0?void 0:e.state.groupStdin,a=()=>{let Zl=e.state.groupStdin;Za(),_jbSharedStdinLeft(e,Zb,Zl)};e.state.parentHasLoopContext=o>0,e.state.loopDepth=0,e.state.bashPid=e.state.nextVirtualPid++,r!==void 0&&(e.state.groupStdin=r),',
    },
    { find: 'async executeUserScript(t,n,r="",Zn){', replace: 'async executeUserScript(t,n,r,Zn){' },
    {
      // a subshell on the shell's stdin (no redirection of its own, not a later pipeline stage) hands back what it left
      find: 'async function Af(e,t,n,r,s=!1){let i=e.state.loopDepth,o=new Map;',
      replace: 'async function Af(e,t,n,r,s=!1){let i=e.state.loopDepth,o=new Map,Zo=!0,Zb=e.state.groupStdin;',
    },
    {
      find: 'l=>_jbSubshell(e,()=>Om(e,t,l.stdin??n,r,s||l.stdin!==void 0))',
      replace: 'l=>(Zo=s||n!==""||l.stdin!==void 0,_jbSubshell(e,()=>Om(e,t,l.stdin??n,r,s||l.stdin!==void 0)))',
    },
    {
      find: 'a();for(let[c,u]of l)tn(e,c,u)}}',
      replace: 'let Zl=e.state.groupStdin;a(),Zo||_jbSharedStdinLeft(e,Zb,Zl);for(let[c,u]of l)tn(e,c,u)}}',
    },
    // a command found by name: whether it has a stdin of its own (a redirection) or runs on the shell's
    { find: 'async function pf(e,t,n,r,s){', replace: 'async function pf(e,t,n,r,s,Zl=!1){' },
    { find: '{...await pf(c,t,n,s,o),', replace: '{...await pf(c,t,n,s,o,l),' },
    {
      find: 'return t.includes("/")||H(c.path),await a(c.path,n,r,t.includes("/")?t:c.path)}',
      replace: 'return t.includes("/")||H(c.path),await a(c.path,n,Zl?r:r||void 0,t.includes("/")?t:c.path)}',
    },
    {
      find: 'i.state.fileDescriptors??=new Map;let m={',
      replace: 'let Zg=!Zl&&!r&&i.state.groupStdin!==void 0,Zq;Zl&&(d=r);i.state.fileDescriptors??=new Map;let m={',
    },
    {
      // a child shell on the same stdin says what it left
      find: 'execWithInheritedStdin:(v,k)=>i.execFn(v,{...k,stdin:d,stdinKind:"bytes",spzParentPid:i.state.spzExecParent??i.state.bashPid},!0)',
      replace:
        'execWithInheritedStdin:async(v,k)=>{let R=await i.execFn(v,{...k,stdin:d,stdinKind:"bytes",spzParentPid:i.state.spzExecParent??i.state.bashPid},!0);R?.spzStdinLeft!==void 0&&(Zq=Math.max(0,d.length-R.spzStdinLeft));return R}',
    },
    {
      find: 'return{...A,internalStdinConsumed:A.internalStdinConsumed??(p?r.length:0)}',
      replace:
        'let Zc=A.internalStdinConsumed??Zq??(p?d.length:0);if(Zg&&Zc>0){let Zs=i.state.groupStdinSourceFd;i.state.groupStdin=d.slice(Math.min(Zc,d.length)),Zs!==void 0&&tn(i,Zs,Zc)}' +
        'return{...A,internalStdinConsumed:A.internalStdinConsumed??(p?r.length:0)}',
    },
    {
      // what a shell run by exec left of its stdin
      find: 'return v&&(N.metadata=v),l(N)}',
      replace: 'return v&&(N.metadata=v),m.groupStdin!==void 0&&(N={...N,spzStdinLeft:m.groupStdin.length}),l(N)}',
    },
    {
      find: 'if(y instanceof G)return l({stdout:y.stdout,stderr:y.stderr,exitCode:y.spzShellStatus??y.exitCode,',
      replace: 'if(y instanceof G)return l({...(m.groupStdin!==void 0?{spzStdinLeft:m.groupStdin.length}:{}),stdout:y.stdout,stderr:y.stderr,exitCode:y.spzShellStatus??y.exitCode,',
    },
  ],
};
