// Python's os.rename/os.replace move the entry itself, as rename(2) does: the worker's host filesystem copied the
// source's bytes into the destination's existing file (so every other hard link of that file saw the new content,
// and a symlink destination had its target overwritten) and then removed the source, and a directory could not be
// renamed at all (EIO, as reading it failed). It now asks the main thread's filesystem to rename (`mv`), whose
// errors carry the real cause (`[Errno 39] Directory not empty` for a directory onto a non-empty one).
export default {
  title: "Python's os.rename renames the entry instead of copying its bytes",
  upstream: 'src/commands/python3/worker.ts createHOSTFS node_ops.rename: call backend.rename(oldPath, newPath) instead of readFile + writeFile + rm',
  file: 'dist/bundle/chunks/worker.js',
  edits: [
    {
      find: '        tryFSOperation(() => {\n          const content = backend.readFile(oldPath);\n          backend.writeFile(newPath, content);\n          backend.rm(oldPath, false, false);\n        });',
      replace: '        tryFSOperation(() => backend.rename(oldPath, newPath));',
    },
  ],
};
