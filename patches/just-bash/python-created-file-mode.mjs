// A file Python creates (`open(p, "w")`, `os.open(p, O_CREAT, 0o600)`) gets the mode it asked for less the shell's
// umask, as open(2) gives it. Emscripten's FS.open makes the file, then sets the requested mode (0666 for `open`)
// with no umask at all, and the worker's host filesystem passed that chmod on as any other: every file Python made
// was 0666. The chmod that follows a creation now carries a flag (bit 0o1000000, above the file-type bits) which
// the filesystem reads as "creation mode": it applies its umask to it (shell/bash-fs.ts `chmod`); an explicit
// `os.chmod` is passed on as before.
export default {
  title: 'files Python creates get the requested mode less the umask',
  upstream: 'src/commands/python3/worker.ts createHOSTFS: mark the chmod Emscripten issues right after mknod of a regular file as a creation mode, so the host filesystem can apply its umask',
  file: 'dist/bundle/chunks/worker.js',
  edits: [
    {
      find: 'tryFSOperation(() => backend.chmod(path, mode));',
      replace: 'tryFSOperation(() => backend.chmod(path, node.spzCreated ? mode | 262144 : mode));\n          node.spzCreated = false;',
    },
    {
      find: 'backend.writeFile(path, new Uint8Array(0));',
      replace: 'backend.writeFile(path, new Uint8Array(0));\n            node.spzCreated = true;',
    },
  ],
};
