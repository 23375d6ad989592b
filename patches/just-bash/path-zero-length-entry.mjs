// "A zero-length (null) directory name in the value of PATH indicates the current directory" (bash's manual, "Bourne
// Shell Variables"): `PATH="$PATH:"`, `PATH=":/bin"` and `/usr/bin::/bin` find a program in the current directory,
// as do `type` and `command -v`. just-bash skipped the empty entries.
export default {
  title: 'an empty PATH entry is the current directory',
  upstream: 'src/interpreter/command-resolution.ts (PATH search) and builtins/type.ts, command -v: an empty PATH element means "."',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: '.split(":");for(let o of s){if(!o)continue;let l=`${o.startsWith("/")?o:e.fs.resolvePath(e.state.cwd,o)}/${t}`;',
      replace: '.split(":");for(let o of s){o||(o=".");let l=`${o.startsWith("/")?o:e.fs.resolvePath(e.state.cwd,o)}/${t}`;',
    },
    {
      find: 'for(let i of s){if(!i)continue;let a=`${i.startsWith("/")?i:e.fs.resolvePath(e.state.cwd,i)}/${t}`;',
      replace: 'for(let i of s){i||(i=".");let a=`${i.startsWith("/")?i:e.fs.resolvePath(e.state.cwd,i)}/${t}`;',
    },
    {
      find: 'for(let s of r){if(!s)continue;let o=`${s.startsWith("/")?s:e.fs.resolvePath(e.state.cwd,s)}/${t}`;',
      replace: 'for(let s of r){s||(s=".");let o=`${s.startsWith("/")?s:e.fs.resolvePath(e.state.cwd,s)}/${t}`;',
    },
    {
      find: 'for(let d of (e.state.env.get("PATH")??"").split(":")){if(!d)continue;try{let h=await e.fs.stat(`${d}/${a}`);',
      replace: 'for(let d of (e.state.env.get("PATH")??"").split(":")){d||(d=".");try{let h=await e.fs.stat(e.fs.resolvePath(e.state.cwd,`${d}/${a}`));',
    },
  ],
};
