// A program's argv[0] is the word that named it (execve(2); bash's manual, "Command Search and Execution"): a shell
// run as `/bin/sh -c 'echo $0'` prints `/bin/sh`, as `sh -c …` prints `sh`. The interpreter hands a command the
// word it was run by (`spzInvokedAs`); spritzer's shells take it for `$0` when it is a path (shell-command.ts).
export default {
  title: 'a command learns the word that named it (argv[0]), so that a shell run by path has that path as $0',
  upstream: 'src/interpreter/command-execution.ts: pass the command word to the command context (argv0)',
  file: 'dist/bundle/index.js',
  edits: [{ find: 'fsIdentity:Tr(i.fs),cwd:i.state.cwd,env:i.state.env,', replace: 'fsIdentity:Tr(i.fs),spzInvokedAs:t,cwd:i.state.cwd,env:i.state.env,' }],
};
