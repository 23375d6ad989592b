// `source /dev/stdin` (also `. /dev/fd/0`, `/proc/self/fd/0`) runs the builtin's stdin as the script (`source
// /dev/stdin <<< 'echo hi'`, `curl … | source /dev/stdin`): the file the path names is the shell's fd 0. just-bash
// read the filesystem's empty device and ran nothing, silently. Inside a `{ …; }` reading a pipe, the group's
// stdin is what it reads (and what it leaves for the commands after it: nothing).
export default {
  title: 'source /dev/stdin runs what the builtin reads on its stdin',
  upstream: 'src/interpreter/builtins/source.ts: a path naming fd 0 (/dev/stdin, /dev/fd/0, /proc/self/fd/0) reads the builtin\'s stdin',
  file: 'dist/bundle/index.js',
  edits: [
    { find: "async function Xo(e,t){", replace: "async function Xo(e,t,_in){" },
    { find: "if(r.includes(\"/\")){let c=e.fs.resolvePath(e.state.cwd,r);try{i=await e.fs.readFile(c),s=c}catch{}}", replace: "if(r.includes(\"/\")){let c=e.fs.resolvePath(e.state.cwd,r);if(/^\\/(?:dev\\/stdin|dev\\/fd\\/0|proc\\/self\\/fd\\/0)$/.test(c)){let _g=_in;if(!_g&&typeof e.state.groupStdin==\"string\")_g=e.state.groupStdin,e.state.groupStdin=\"\";i=Buffer.from(_g??\"\",\"latin1\").toString(\"utf8\"),s=c}else try{i=await e.fs.readFile(c),s=c}catch{}}" },
    { find: "if(t===\"source\"||t===\".\")return Xo(c,n);", replace: "if(t===\"source\"||t===\".\")return Xo(c,n,s);" },
  ],
};
