// cp onto an existing regular file rewrites its content and keeps its mode (GNU cp opens it with O_TRUNC; only a new
// file takes the source's mode, and -p copies it): `cp -f run.sh a.txt` leaves a.txt 0644. just-bash gave the
// destination the source's mode every time.
export default {
  title: 'cp onto an existing file keeps the file mode',
  upstream: 'src/commands/cp/cp.ts execute: when the destination is an existing regular file and -p is not given, restore its mode after the copy',
  file: 'dist/bundle/chunks/chunk-PMYUC5JF.js',
  edits: [
    {
      find: 'await e.fs.cp(o,r,{recursive:d}),N&&',
      replace: 'await(async()=>{let z=null;if(!A&&!a.isDirectory)try{let q=await e.fs.stat(r);q.isFile&&(z=q.mode&4095)}catch{}await e.fs.cp(o,r,{recursive:d}),z!==null&&await e.fs.chmod(r,z)})(),N&&',
    },
  ],
};
