// The main thread's half of python-utimes-atime: the stat record sent to Python's worker carries the access time
// (epoch ms) after the inode number, and a UTIMES request with a second float64 sets the access time to it.
export default {
  title: "the stat record sent to Python's worker carries the access time, and its UTIMES request sets it",
  upstream: "src/commands/fs-bridge protocol encodeStat (StatLayout.ATIME) and fs-bridge-handler handleUtimes: a second float64, the access time",
  file: "dist/bundle/chunks/chunk-YJKHREBZ.js",
  edits: [
    { find: "MTIME:16,UID:24,GID:28,NLINK:32,INO:36,TOTAL:44}", replace: "MTIME:16,UID:24,GID:28,NLINK:32,INO:36,ATIME:44,TOTAL:52}" },
    { find: "this.dataView.setFloat64(o.DATA_BUFFER+u.INO,t.ino??0,!0),", replace: "this.dataView.setFloat64(o.DATA_BUFFER+u.INO,t.ino??0,!0),this.dataView.setFloat64(o.DATA_BUFFER+u.ATIME,(t.atime??t.mtime).getTime(),!0)," },
    { find: "e=new DataView(this.protocol.getData().buffer).getFloat64(0,!0),a=Math.floor(e),s=new Date(a);Object.defineProperty(s,\"subMsNs\",{value:Math.min(999999,Math.round((e-a)*1e6))});try{await this.fs.utimes(t,s,s)", replace: "d=this.protocol.getData(),k=(v)=>{let f=Math.floor(v),w=new Date(f);return Object.defineProperty(w,\"subMsNs\",{value:Math.min(999999,Math.round((v-f)*1e6))}),w},s=k(new DataView(d.buffer).getFloat64(0,!0)),c=d.byteLength>=16?k(new DataView(d.buffer).getFloat64(8,!0)):s;try{await this.fs.utimes(t,c,s)" },
  ],
};
