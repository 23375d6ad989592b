// `test -O FILE` is true when FILE is owned by the effective user id, `-G FILE` when its group is the effective
// group id (bash's manual, "Bash Conditional Expressions"). just-bash answered both with whether the file exists,
// so `test -O /etc/passwd` (root's) was true for the sprite's user. The effective ids are the shell's (the sprite
// user, 1001, as the embedder's processInfo gives them), or root's under `sudo` (its command's environment has
// SUDO_UID and USER=root, as src/server/machines/memory/shell/run-as.ts reads it); a file's owner is what its stat
// gives (the shell's own ids when the stat carries none).
export default {
  title: 'test -O and -G compare the file\'s owner and group with the effective ids',
  upstream: 'src/interpreter/conditionals.ts (file tests): -O / -G compare stat uid / gid with the process\'s effective ids',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"-G":case"-O":return e.fs.exists(r);',
      replace:
        'case"-G":case"-O":{if(!await e.fs.exists(r))return!1;let s=await e.fs.stat(r),z=e.state.env.get("SUDO_UID")!==void 0&&e.state.env.get("USER")==="root";' +
        'return t==="-O"?(s.uid??e.state.virtualUid)===(z?0:e.state.virtualUid):(s.gid??e.state.virtualGid)===(z?0:e.state.virtualGid)}',
    },
  ],
};
