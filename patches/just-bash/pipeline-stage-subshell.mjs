// Each command of a pipeline runs in a subshell (all but the last one with `shopt -s lastpipe`), a process of its
// own: `$BASHPID` there is that process's pid, not the shell's (`$$` stays the shell's), `$BASH_SUBSHELL` is one
// more than the shell's for a compound stage (bash forks a simple command without counting a subshell), and a directory it changes
// to (`pushd src | sed …`, `popd`) and its directory stack are its own. just-bash ran the stages
// as subshells for their variables but kept the shell's BASHPID, so `echo x | { [ $$ != $BASHPID ] && … }` was
// false. A stage that is one simple command is that command's own process (the subshell execs it), so a shell it
// starts is a child of the pipeline's shell: `state.spzExecParent` (shell-parent-pid.mjs) names that shell. Bash's manual, "Pipelines" and "Bash Variables" (BASHPID).
export default {
  title: 'each subshell stage of a pipeline has its own $BASHPID, BASH_SUBSHELL level, working directory and directory stack',
  upstream: 'src/interpreter/pipeline-execution.ts executePipeline: for a stage that runs as a subshell, set state.bashPid to a fresh virtual pid, raise state.subshellLevel, and copy the directory stack while it runs; restore them, cwd and previousDir after',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let _ps=e.state.spzPipeStage;e.state.spzPipeStage=_ps||u&&!S;try{N=await n(y,s)}finally{e.state.spzPipeStage=_ps}',
      replace: 'let _ps=e.state.spzPipeStage,_bp=e.state.bashPid,_xp=e.state.spzExecParent;e.state.spzPipeStage=_ps||u&&!S;let _cw=e.state.cwd,_pd=e.state.previousDir,_ds=e.state.directoryStack,_sl=e.state.subshellLevel;k&&(e.state.bashPid=e.state.nextVirtualPid++,e.state.subshellLevel=(_sl??0)+(y.type==="SimpleCommand"?0:1),e.state.directoryStack=_ds&&[..._ds],e.state.spzExecParent=y.type==="SimpleCommand"?_xp??_bp:void 0);try{N=await n(y,s)}finally{e.state.spzPipeStage=_ps,e.state.bashPid=_bp,e.state.spzExecParent=_xp,k&&(e.state.cwd=_cw,e.state.previousDir=_pd,e.state.directoryStack=_ds,e.state.subshellLevel=_sl)}',
    },
  ],
};
