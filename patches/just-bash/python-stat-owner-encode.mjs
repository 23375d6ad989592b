// The main thread's half of python-stat-owner: the stat record it sends the Python worker carries the file's owner
// and group (0 where the filesystem reports none) after the fields the record already had.
export default {
  title: "the stat record sent to Python's worker carries the file's owner and group",
  upstream: 'src/commands/fs-bridge protocol encodeStat/decodeStat: write and read uid/gid after mtime (StatLayout.UID/GID)',
  file: 'dist/bundle/chunks/chunk-YJKHREBZ.js',
  edits: [
    { find: 'MTIME:16,TOTAL:24}', replace: 'MTIME:16,UID:24,GID:28,TOTAL:32}' },
    {
      find: 'this.dataView.setFloat64(o.DATA_BUFFER+u.MTIME,t.mtime.getTime(),!0),',
      replace: 'this.dataView.setFloat64(o.DATA_BUFFER+u.MTIME,t.mtime.getTime(),!0),this.dataView.setInt32(o.DATA_BUFFER+u.UID,t.uid??0,!0),this.dataView.setInt32(o.DATA_BUFFER+u.GID,t.gid??0,!0),',
    },
  ],
};
