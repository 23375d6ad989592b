// `test -r/-w/-x FILE` (and `[[ … ]]`) ask whether the shell's user may read, write or execute the file, as
// access(2) answers: for the sprite user `/` (root's, 0755) is not writable; for root everything is. just-bash read
// the owner's bits whoever owns the file. Here the filesystem answers when it can (`access(path, bit)`; spritzer's
// BashFs does, bash-fs.ts), and the owner's bits stay the answer otherwise.
export default {
  title: 'test -r/-w/-x ask the filesystem whether the shell user may read, write or execute (access(2)), when it can tell',
  upstream: 'src/interpreter/conditionals.ts (evaluateFileTest, -r/-w/-x): await fs.access(path, R_OK|W_OK|X_OK) when the filesystem offers access, the owner bits otherwise',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"-r":return await e.fs.exists(r)?((await e.fs.stat(r)).mode&256)!==0:!1;case"-w":return await e.fs.exists(r)?((await e.fs.stat(r)).mode&128)!==0:!1;case"-x":return await e.fs.exists(r)?((await e.fs.stat(r)).mode&64)!==0:!1;',
      replace: 'case"-r":return await e.fs.exists(r)?(typeof e.fs.access=="function"?await e.fs.access(r,4):((await e.fs.stat(r)).mode&256)!==0):!1;case"-w":return await e.fs.exists(r)?(typeof e.fs.access=="function"?await e.fs.access(r,2):((await e.fs.stat(r)).mode&128)!==0):!1;case"-x":return await e.fs.exists(r)?(typeof e.fs.access=="function"?await e.fs.access(r,1):((await e.fs.stat(r)).mode&64)!==0):!1;',
    },
  ],
};
