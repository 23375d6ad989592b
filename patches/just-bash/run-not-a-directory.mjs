// Running a path whose lookup fails on a non-directory (`./f/` or `./f/x` with `f` a file) fails as execve(2)
// does for it: `bash: line N: ./f/: Not a directory`, status 126 (bash's execute_cmd.c, shell_execve: any errno
// but ENOENT is status 126, worded by strerror). just-bash took every failed lookup for a missing file (127).
export default {
  title: 'running `file/` is "Not a directory", status 126',
  upstream: 'src/interpreter/command-resolution.ts resolveCommand: a path whose stat fails with ENOTDIR resolves to a "not_a_directory" error, reported by runCommand as "NAME: Not a directory" with status 126',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(!await e.fs.exists(o))return{error:"not_found",path:o};',
      replace: 'if(!await e.fs.exists(o)){let _nd=await e.fs.stat(o).then(()=>!1,_x=>_x?.code==="ENOTDIR");return{error:_nd?"not_a_directory":"not_found",path:o}}',
    },
    {
      find: 'if("error"in c)return c.error==="is_directory"?D(`bash: ${t}: Is a directory\\n`,126):',
      replace: 'if("error"in c)return c.error==="not_a_directory"?D(`bash: ${t}: Not a directory\\n`,126):c.error==="is_directory"?D(`bash: ${t}: Is a directory\\n`,126):',
    },
  ],
};
