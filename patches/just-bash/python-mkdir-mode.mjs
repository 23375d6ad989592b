// A directory Python creates (`os.mkdir(p, 0o700)`, `os.makedirs(…, mode=)`, `Path.mkdir(mode=)`,
// `tempfile.mkdtemp()`) gets the mode it asked for less the umask, as mkdir(2) gives it: the worker's host
// filesystem made every directory with the default mode (0755 under umask 022), so a private temporary directory
// was world-readable. The mode is passed on as a creation mode (bit 0o1000000, see python-created-file-mode), to
// which the filesystem applies its umask.
export default {
  title: 'directories Python creates get the requested mode less the umask',
  upstream: 'src/commands/python3/worker.ts createHOSTFS node_ops.mknod: after backend.mkdir, chmod the directory to the mode mknod was given (masked by the host umask)',
  file: 'dist/bundle/chunks/worker.js',
  edits: [
    {
      find: '          if (FS.isDir(node.mode)) {\n            backend.mkdir(path, false);\n          }',
      replace: '          if (FS.isDir(node.mode)) {\n            backend.mkdir(path, false);\n            backend.chmod(path, (mode & 4095) | 262144);\n          }',
    },
  ],
};
