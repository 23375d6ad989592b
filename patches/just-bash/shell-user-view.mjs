// A shell started for another user (`sudo bash -c '…'`, `sudo sh -c 'echo x > /etc/f'`) opens its redirections as
// that user: root may write where the sprite user may not. just-bash gave every shell, nested ones included, the one
// filesystem of the Bash instance. Here a shell gets the filesystem's view for its environment, when the filesystem
// offers one (`forShell(env)`; spritzer's BashFs does, bash-fs.ts: root when the environment is sudo's).
export default {
  title: "A shell's redirections act as the user its environment names (a per-shell filesystem view, when the filesystem offers one)",
  upstream: 'src/interpreter/interpreter.ts (Interpreter constructor, the InterpreterContext): fs: fs.forShell ? fs.forShell(state.env) : fs, with forShell optional on IFileSystem',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'this.ctx={state:n,fs:t.fs,commands:t.commands,',
      replace: 'this.ctx={state:n,fs:typeof t.fs.forShell=="function"?t.fs.forShell(n.env):t.fs,commands:t.commands,',
    },
  ],
};
