// `os.stat(p).st_atime` is the file's access time and `os.utime(p, (atime, mtime))` sets the two apart (so
// `shutil.copy2` keeps the source's access time): the worker's host filesystem gave the modification time for both and
// sent only the modification time. The stat record gets the access time after the inode number, and UTIMES a second
// float64 (python-utimes-atime-encode is the main thread's half).
export default {
  title: "Python's os.stat reports a file's access time, and os.utime sets it apart from the modification time",
  upstream: "src/commands/python3/worker.ts createHOSTFS getattr (atime) and setattr (attr.atime), src/commands/fs-bridge protocol StatLayout.ATIME and SyncFsBackend.utimes(path, mtimeMs, atimeMs)",
  file: "dist/bundle/chunks/worker.js",
  edits: [
    { find: "  NLINK: 32,\n  INO: 36,\n  TOTAL: 44\n};", replace: "  NLINK: 32,\n  INO: 36,\n  ATIME: 44,\n  TOTAL: 52\n};" },
    { find: "      ino: this.dataView.getFloat64(Offset.DATA_BUFFER + StatLayout.INO, true)\n    };", replace: "      ino: this.dataView.getFloat64(Offset.DATA_BUFFER + StatLayout.INO, true),\n      atime: new Date(this.dataView.getFloat64(Offset.DATA_BUFFER + StatLayout.ATIME, true))\n    };" },
    { find: "            atime: stat.mtime,\n            mtime: stat.mtime,", replace: "            atime: stat.atime.getTime() ? stat.atime : stat.mtime,\n            mtime: stat.mtime," },
    { find: "  utimes(path, mtimeMs) {\n    const data = new Uint8Array(8);\n    new DataView(data.buffer).setFloat64(0, mtimeMs, true);", replace: "  utimes(path, mtimeMs, atimeMs) {\n    const data = new Uint8Array(16);\n    new DataView(data.buffer).setFloat64(0, mtimeMs, true);\n    new DataView(data.buffer).setFloat64(8, atimeMs ?? mtimeMs, true);" },
    { find: "        if (attr.mtime != null) tryFSOperation(() => backend.utimes(path, attr.mtime));", replace: "        if (attr.mtime != null) tryFSOperation(() => backend.utimes(path, attr.mtime, attr.atime));" },
  ],
};
