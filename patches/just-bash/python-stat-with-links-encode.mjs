// The main thread's half of python-stat-with-links: the stat record sent to Python's worker carries the file's link
// count and inode number (0 where the filesystem reports none) after the owner fields.
export default {
  title: "the stat record sent to Python's worker carries the file's link count and inode number",
  upstream: 'src/commands/fs-bridge protocol encodeStat: write nlink/ino after uid/gid (StatLayout.NLINK/INO)',
  file: 'dist/bundle/chunks/chunk-YJKHREBZ.js',
  edits: [
    { find: 'MTIME:16,UID:24,GID:28,TOTAL:32}', replace: 'MTIME:16,UID:24,GID:28,NLINK:32,INO:36,TOTAL:44}' },
    {
      find: 'this.dataView.setInt32(o.DATA_BUFFER+u.GID,t.gid??0,!0),',
      replace: 'this.dataView.setInt32(o.DATA_BUFFER+u.GID,t.gid??0,!0),this.dataView.setInt32(o.DATA_BUFFER+u.NLINK,t.nlink??0,!0),this.dataView.setFloat64(o.DATA_BUFFER+u.INO,t.ino??0,!0),',
    },
  ],
};
