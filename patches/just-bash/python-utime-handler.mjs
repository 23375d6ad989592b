// The main thread's half of python-utime: the UTIMES operation sets the path's modification time (following a
// symlink, as utime(2) does) through the filesystem's `utimes`, keeping the nanoseconds below the millisecond in the
// `subMsNs` property the shell's filesystem reads (shell/file-time.ts).
export default {
  title: "the Python worker's UTIMES request sets a file's modification time",
  upstream: 'src/commands/fs-bridge/fs-bridge-handler.ts: handle OpCode.UTIMES with fs.utimes',
  file: 'dist/bundle/chunks/chunk-YJKHREBZ.js',
  edits: [
    { find: 'RENAME:14,COPY_FILE:15,WRITE_STDOUT:100', replace: 'RENAME:14,COPY_FILE:15,UTIMES:16,WRITE_STDOUT:100' },
    { find: 'case n.COPY_FILE:await this.handleCopyFile();break;', replace: 'case n.COPY_FILE:await this.handleCopyFile();break;case n.UTIMES:await this.handleUtimes();break;' },
    {
      find: 'async handleCopyFile(){',
      replace:
        'async handleUtimes(){let t=this.resolvePath(this.protocol.getPath()),e=new DataView(this.protocol.getData().buffer).getFloat64(0,!0),a=Math.floor(e),s=new Date(a);Object.defineProperty(s,"subMsNs",{value:Math.min(999999,Math.round((e-a)*1e6))});try{await this.fs.utimes(t,s,s),this.protocol.setStatus(r.SUCCESS)}catch(i){this.setErrorFromException(i)}}async handleCopyFile(){',
    },
  ],
};
