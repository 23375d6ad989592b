// `cat /dev/fd/3 3<file`, `diff a /dev/fd/3 3<b`, `exec 4<f; wc -l /dev/fd/4`: on Linux `/dev/fd/N` opens what the
// process's descriptor N is open on, so a program reads the file a redirection gave it (proc(5), /proc/self/fd).
// The interpreter keeps a redirected input descriptor's contents in its descriptor table, which the filesystem does
// not see: the path read nothing or did not exist. A command's filesystem now answers `/dev/fd/N` and
// `/proc/self/fd/N` (N ≥ 3) open for reading with that descriptor's contents.
const fdFs =
  'function __jbFdFs(b,e){let F=(p)=>{let m=/^\\/(?:dev\\/fd|proc\\/self\\/fd)\\/(\\d+)$/.exec(p);if(!m||Number(m[1])<3)return null;let d=tt(e,Number(m[1]));return d&&(d.kind==="input"||d.kind==="readwrite")&&typeof d.content=="string"?d.content:null},' +
  'B=(t)=>new TextEncoder().encode(t),W={' +
  'readFile:async(p,o)=>{let t=F(p);if(t===null)return b.readFile(p,o);let c=typeof o=="string"?o:o?.encoding;return c==="latin1"||c==="binary"?Buffer.from(B(t)).toString("latin1"):t},' +
  'readFileBuffer:async(p)=>{let t=F(p);return t===null?b.readFileBuffer(p):B(t)},' +
  'readFileBytes:async(p)=>{let t=F(p);return t===null?b.readFileBytes(p):Buffer.from(B(t)).toString("latin1")},' +
  'exists:async(p)=>F(p)!==null||b.exists(p),' +
  'stat:async(p)=>{let t=F(p);return t===null?b.stat(p):{isFile:!0,isDirectory:!1,isSymbolicLink:!1,mode:33188,size:B(t).length,mtime:new Date(0)}}};' +
  'return new Proxy(b,{get(o,k){if(Object.hasOwn(W,k)&&typeof o[k]=="function")return W[k];let v=Reflect.get(o,k);return typeof v=="function"?v.bind(o):v}})}';
export default {
  title: 'a command reads /dev/fd/N of a descriptor a redirection opened for reading',
  upstream: 'src/interpreter/interpreter.ts (CommandContext.fs): resolve /dev/fd/N and /proc/self/fd/N through the shell\'s descriptor table',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'function tt(e,t){', replace: `${fdFs}function tt(e,t){` },
    {
      find: 'fs:typeof i.fs.forCommand=="function"?i.fs.forCommand(t,n,f,i.state.env,h,i.state.bashPid):i.fs,',
      // (only while the shell holds a descriptor: most commands run with none)
      replace: 'fs:(Zf=>i.state.fileDescriptors?.size?__jbFdFs(Zf,i):Zf)(typeof i.fs.forCommand=="function"?i.fs.forCommand(t,n,f,i.state.env,h,i.state.bashPid):i.fs),',
    },
  ],
};
