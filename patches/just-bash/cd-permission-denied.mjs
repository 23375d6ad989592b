// cd into a directory the user may not search (no x bit: `chmod 600 d; cd d`), or through one, fails with bash's
// `cd: d: Permission denied`, status 1, as chdir(2)'s EACCES reads; just-bash only asked whether the path was a
// directory, and worded any failure to look it up as "No such file or directory". The filesystem's `access`
// answers for the user the command runs as (src/server/machines/memory/shell/bash-fs.ts).
export default {
  title: 'cd: Permission denied for a directory the user may not search',
  upstream: 'src/interpreter/builtins/cd.ts handleCd: map EACCES to "Permission denied", and check search permission (fs.access X_OK) on the new directory',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: '}catch{return D(`bash: cd: ${n}: No such file or directory\n`)}}let u=c||"/";',
      replace: '}catch(_e){return D(`bash: cd: ${n}: ${_e?.code==="EACCES"?"Permission denied":"No such file or directory"}\n`)}}let u=c||"/";if(e.fs.access&&!await e.fs.access(u,1))return D(`bash: cd: ${n}: Permission denied\n`);',
    },
  ],
};
