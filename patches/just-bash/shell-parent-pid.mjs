// A shell that a command starts (`bash -c …`, a script run by path) is the child of the process that ran it: its
// `$PPID` is that shell's (or subshell's) pid. just-bash gave every such shell the top-level shell's parent pid (the
// sprite's init, 1), so `bash -c 'echo $PPID'` never named the calling shell. Bash's manual, "Bash Variables" (PPID).
// In a pipeline stage that is one simple command, bash's subshell execs the command, so the started shell's parent
// is the pipeline's shell (state.spzExecParent, set by pipeline-stage-subshell.mjs).
export default {
  title: "a child shell's $PPID is the pid of the shell that started it",
  upstream: "src/interpreter/command-resolution.ts (command context exec/execWithInheritedStdin) and src/Bash.ts exec: pass the caller's state.bashPid, and make it the new shell state's virtualPpid",
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'exec:(v,k)=>i.execFn(v,k,!1),execWithInheritedStdin:(v,k)=>i.execFn(v,{...k,stdin:d,stdinKind:"bytes"},!0)',
      replace: 'exec:(v,k)=>i.execFn(v,{...k,spzParentPid:i.state.spzExecParent??i.state.bashPid},!1),execWithInheritedStdin:(v,k)=>i.execFn(v,{...k,stdin:d,stdinKind:"bytes",spzParentPid:i.state.spzExecParent??i.state.bashPid},!0)',
    },
    {
      find: 'let m={...this.state,shoptOptions:',
      replace: 'let m={...this.state,...(u.spzParentPid!==void 0?{virtualPpid:u.spzParentPid}:{}),shoptOptions:',
    },
  ],
};
