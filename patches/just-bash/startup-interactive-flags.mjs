// `bash -i -c '…'` is an interactive shell (bash(1) "INVOCATION"): `$-` has `i` and, with history expansion on by
// default in an interactive shell, `H` (`hiBHc` when its stderr is no terminal, so no `m`: job control is off). The
// shell engine's `bash` command (src/server/machines/memory/shell/shell-command.ts) reads its rc files; it runs the
// script with the execution option `spzInteractive`, which `$-` now shows.
export default {
  title: '$- of a shell started with -i has i and H',
  upstream: 'src/Bash.ts execInScope: an option marking the execution as an interactive shell; src/interpreter/expansion ($-): i and H for it',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'signal:u.signal,extraArgs:u.args,', replace: 'signal:u.signal,interactiveInvocation:u.spzInteractive===!0,extraArgs:u.args,' },
    { find: '(i?"im":"")', replace: '(i?"im":e.state.interactiveInvocation?"i":"")' },
    { find: '(i?"H":"")', replace: '(i||e.state.interactiveInvocation?"H":"")' },
  ],
};
