// `cd -P DIR` changes to DIR as chdir(2) looks it up: a `..` after a symbolic link to a directory climbs from the
// directory the link leads to (`ln -s real/sub s; cd -P s/..` is `real`), as the kernel's lookup does. just-bash
// took every `..` by the text, also under -P (and only then resolved the links of what was left). A plain `cd`
// (-L, the default) stays logical, as bash's is.
export default {
  title: 'cd -P: `..` after a symlink climbs from the link target',
  upstream: 'src/interpreter/builtins/cd.ts handleCd: under -P, resolve the directory reached so far (fs.realpath) before taking a `..` component',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'for(let f of l)if(f==="..")c=c.split("/").slice(0,-1).join("/")||"/";else{',
      replace: 'for(let f of l)if(f===".."){if(s&&c)try{c=await e.fs.realpath(c)}catch{}c=c.split("/").slice(0,-1).join("/")||"/"}else{',
    },
  ],
};
