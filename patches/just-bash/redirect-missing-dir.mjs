// An output redirection into a directory that does not exist (`echo x > nodir/f`) fails before the command runs:
// `bash: nodir/f: No such file or directory` (`Not a directory` when a path component is a file), the command is
// not run, its status is 1, and the script goes on. Bash's manual, "Redirections" ("if the file cannot be opened
// … the redirection fails"); just-bash ran the command and the write then failed, which ended the whole script.
export default {
  title: 'a redirection into a missing directory fails that command only',
  upstream: 'src/interpreter/redirections.ts checkOutputTarget: when the target does not exist, check that its parent exists and is a directory ("No such file or directory" / "Not a directory")',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Eh(e,t,n,r){try{if(!await e.fs.exists(t))return null;',
      replace: 'async function Eh(e,t,n,r){try{if(!await e.fs.exists(t)){let _d=t.replace(/\\/[^/]*$/,"")||"/";if(!await e.fs.exists(_d))return`bash: ${n}: No such file or directory\\n`;if(!(await e.fs.stat(_d)).isDirectory)return`bash: ${n}: Not a directory\\n`;return null}',
    },
  ],
};
