// A program's `/proc/self/environ` holds the environment it was started with (proc(5)): the shell's exported
// variables and the `_` it set for it. The filesystem view of each command (proc-self-command) now gets that
// environment too, so `tr '\0' '\n' < /proc/self/environ`'s reader is described with its own.
export default {
  title: "/proc/self/environ: the command's filesystem view gets the environment it runs with",
  upstream: 'src/interpreter/command-resolution.ts runCommand: pass the exported environment to fs.forCommand as its fifth argument',
  file: 'dist/bundle/index.js',
  edits: [{ find: 'i.fs.forCommand(t,n,f,i.state.env)', replace: 'i.fs.forCommand(t,n,f,i.state.env,h)' }],
};
