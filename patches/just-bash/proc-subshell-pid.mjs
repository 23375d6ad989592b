// A subshell is a process of its own on Linux: `( cat /proc/$BASHPID/status )` reads the subshell's entry (a bash
// whose parent is the shell). The filesystem view of each command (proc-self-command) now also gets the pid of the
// shell running it ($BASHPID), so `/proc/$BASHPID` exists for the commands a subshell runs.
export default {
  title: "/proc/$BASHPID: the command's filesystem view gets the pid of the (sub)shell running it",
  upstream: 'src/interpreter/command-resolution.ts runCommand: pass state.bashPid to fs.forCommand as its sixth argument',
  file: 'dist/bundle/index.js',
  edits: [{ find: 'i.fs.forCommand(t,n,f,i.state.env,h)', replace: 'i.fs.forCommand(t,n,f,i.state.env,h,i.state.bashPid)' }],
};
