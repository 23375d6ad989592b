// Python's os.utime sets a file's times (so `shutil.copy2`, `shutil.copystat` and `tarfile.extractall` keep the
// source's modification time): Emscripten passes utime's times to the filesystem's `setattr`, which the worker's host
// filesystem ignored. The bridge gets a UTIMES operation carrying the modification time (epoch ms, with its fraction,
// as a float64), which python-utime-handler applies on the main thread with the filesystem's `utimes`.
export default {
  title: "Python's os.utime sets the file's modification time",
  upstream: 'src/commands/python3/worker.ts createHOSTFS setattr (attr.mtime), src/commands/fs-bridge: a UTIMES op code and SyncFsBackend.utimes',
  file: 'dist/bundle/chunks/worker.js',
  edits: [
    { find: '  COPY_FILE: 15,\n  // Special operations for I/O', replace: '  COPY_FILE: 15,\n  UTIMES: 16,\n  // Special operations for I/O' },
    {
      find: '  copyFile(src, dest) {',
      replace:
        '  utimes(path, mtimeMs) {\n    const data = new Uint8Array(8);\n    new DataView(data.buffer).setFloat64(0, mtimeMs, true);\n    const result = this.execSync(OpCode.UTIMES, path, data);\n    if (!result.success) {\n      throw new Error(result.error || "Failed to utimes");\n    }\n  }\n  copyFile(src, dest) {',
    },
    {
      find: '      setattr(node, attr) {\n        const path = realPath(node);\n',
      replace: '      setattr(node, attr) {\n        const path = realPath(node);\n        if (attr.mtime != null) tryFSOperation(() => backend.utimes(path, attr.mtime));\n',
    },
  ],
};
