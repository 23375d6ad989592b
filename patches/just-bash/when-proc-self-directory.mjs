// A process's `/proc/self/cwd` names the directory it runs in: a command started after `cd /tmp` reads `/tmp`, one in
// a subshell that changed directory that subshell's (proc(5)). The filesystem view the interpreter makes for each
// command it runs (`forCommand`, patches/just-bash/proc-self-command.mjs) now gets the shell's current directory,
// and, for a command a pipeline stage runs directly (bash execs it in the stage's process), the pid of that
// process's parent (`state.spzExecParent`): the command is that process, `/proc/self/status` says so.
export default {
  title: 'a command\'s /proc/self/cwd is the directory the shell runs it in; a pipeline stage\'s command is the stage\'s process',
  upstream: 'src/interpreter/command-resolution.ts: pass the shell\'s cwd and the exec parent of a pipeline stage\'s command to the embedder\'s per-command filesystem view',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'i.fs.forCommand(t,n,f,i.state.env,h,i.state.bashPid)',
      replace: 'i.fs.forCommand(t,n,f,i.state.env,h,i.state.bashPid,i.state.cwd,i.state.spzExecParent)',
    },
  ],
};
