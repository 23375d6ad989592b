// A command that bash has as a builtin and as a program (`pwd`, `echo`, `kill`…) runs as the builtin when the shell
// finds it by name, and as the program when named by a path (`/bin/pwd`) or run by another program (`env pwd`): the
// two can differ (the `pwd` program is physical by default, bash's builtin logical). just-bash runs one command for
// both and did not tell it which it was; its context now says so (`builtin: true` for the builtin).
export default {
  title: 'a command run as a bash builtin is told so (context.builtin)',
  upstream: 'src/interpreter/interpreter.ts runCommand: pass `builtin` (resolveCommand found a registered command that is a bash builtin) in the CommandContext',
  file: 'dist/bundle/index.js',
  edits: [{ find: 'let m={fs:(Zf=>i.state.fileDescriptors', replace: 'let m={builtin:!!c.builtin,fs:(Zf=>i.state.fileDescriptors' }],
};
