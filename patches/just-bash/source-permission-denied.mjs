// `source FILE` / `. FILE` of a file the user may not read fails with bash's `bash: FILE: Permission denied` (the
// open error, as strerror words it); just-bash said "No such file or directory" for any file it could not read.
// The filesystem's `access` answers for the user the shell runs as (src/server/machines/memory/shell/bash-fs.ts).
export default {
  title: 'source: Permission denied for a file the user may not read',
  upstream: 'src/interpreter/builtins/source.ts: keep the read error and word EACCES as "Permission denied"',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: '`:`bash: ${r}: No such file or directory\n`))}let o=new Map;',
      replace: '`:`bash: ${r}: ${await(async()=>{try{let _q=e.fs.resolvePath(e.state.cwd,r);return await e.fs.exists(_q)&&e.fs.access&&!await e.fs.access(_q,4)}catch{return!1}})()?"Permission denied":"No such file or directory"}\n`))}let o=new Map;',
    },
  ],
};
