// A file's owner and group reach Python (`os.stat(p).st_uid`, `Path.owner()`, `os.access`'s rule): the worker's host
// filesystem answered uid 0 and gid 0 for every file, whoever owned it, because the stat it gets from the main thread
// carried only type, mode, size and mtime. The stat layout now has the owner and group after those fields (added at
// the end, so a reader of the older layout still reads the fields it knows), and `getattr` reports them.
export default {
  title: "Python's os.stat reports a file's owner and group",
  upstream: 'src/commands/python3/worker.ts createHOSTFS getattr, src/commands/fs-bridge protocol StatLayout: carry uid/gid in the stat record (with python-stat-owner-encode on the main-thread side)',
  file: 'dist/bundle/chunks/worker.js',
  edits: [
    { find: '  MTIME: 16,\n  TOTAL: 24\n};', replace: '  MTIME: 16,\n  UID: 24,\n  GID: 28,\n  TOTAL: 32\n};' },
    {
      find: '      mtime: new Date(\n        this.dataView.getFloat64(Offset.DATA_BUFFER + StatLayout.MTIME, true)\n      )\n    };',
      replace:
        '      mtime: new Date(\n        this.dataView.getFloat64(Offset.DATA_BUFFER + StatLayout.MTIME, true)\n      ),\n      uid: this.dataView.getInt32(Offset.DATA_BUFFER + StatLayout.UID, true),\n      gid: this.dataView.getInt32(Offset.DATA_BUFFER + StatLayout.GID, true)\n    };',
    },
    {
      find: '            uid: 0,\n            gid: 0,\n            rdev: 0,\n            size: stat.size,',
      replace: '            uid: stat.uid,\n            gid: stat.gid,\n            rdev: 0,\n            size: stat.size,',
    },
  ],
};
