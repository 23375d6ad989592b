// `os.stat(p).st_nlink` counts a file's hard links and `st_ino` is its inode number, so `os.path.samefile`,
// `shutil`'s same-file checks and `filecmp` tell two names of one file alike: the worker's host filesystem answered
// 1 link and Emscripten's per-name node id for every file. The stat record gets the link count and the inode number
// after the owner fields (python-stat-with-links-encode writes them on the main thread); 0 there (an older writer, or a
// filesystem without them) keeps the old answers.
export default {
  title: "Python's os.stat reports a file's link count and inode number",
  upstream: 'src/commands/python3/worker.ts createHOSTFS getattr, src/commands/fs-bridge protocol StatLayout: carry nlink/ino in the stat record',
  file: 'dist/bundle/chunks/worker.js',
  edits: [
    { find: '  UID: 24,\n  GID: 28,\n  TOTAL: 32\n};', replace: '  UID: 24,\n  GID: 28,\n  NLINK: 32,\n  INO: 36,\n  TOTAL: 44\n};' },
    {
      find: '      gid: this.dataView.getInt32(Offset.DATA_BUFFER + StatLayout.GID, true)\n    };',
      replace:
        '      gid: this.dataView.getInt32(Offset.DATA_BUFFER + StatLayout.GID, true),\n      nlink: this.dataView.getInt32(Offset.DATA_BUFFER + StatLayout.NLINK, true),\n      ino: this.dataView.getFloat64(Offset.DATA_BUFFER + StatLayout.INO, true)\n    };',
    },
    {
      find: '            dev: 1,\n            ino: node.id,\n            mode,\n            nlink: 1,\n            uid: stat.uid,',
      replace: '            dev: 1,\n            ino: stat.ino || node.id,\n            mode,\n            nlink: stat.nlink || 1,\n            uid: stat.uid,',
    },
  ],
};
