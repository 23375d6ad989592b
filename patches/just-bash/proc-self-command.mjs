// A command reading /proc/self sees itself there on Linux: `cat /proc/self/comm` prints `cat`, `readlink
// /proc/self/exe` names readlink's program. just-bash handed every command the shell's one filesystem, so a command
// could only ever see the shell. Here each external command gets the filesystem's view for it, when the filesystem
// offers one (`forCommand(name, args, path, env)`; spritzer's BashFs does, bash-fs.ts): the same files, with
// /proc/self describing that command, and the permissions of the user its environment names (root under sudo).
// Builtins keep the shell's view, as they are the shell.
export default {
  title: "/proc/self describes the command reading it, and its permissions are its user's (a per-command filesystem view, when the filesystem offers one)",
  upstream: 'src/interpreter/command-resolution.ts (the CommandContext built for an external command): fs: fs.forCommand ? fs.forCommand(commandName, args, resolvedPath, state.env) : fs, with forCommand optional on IFileSystem',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let m={fs:i.fs,fsIdentity:Tr(i.fs),cwd:i.state.cwd,',
      replace: 'let m={fs:typeof i.fs.forCommand=="function"?i.fs.forCommand(t,n,f,i.state.env):i.fs,fsIdentity:Tr(i.fs),cwd:i.state.cwd,',
    },
  ],
};
