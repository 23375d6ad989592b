// Running a directory by its path (`./src`, `/`) fails as execve(2) does for it: `bash: line N: ./src: Is a
// directory`, status 126 (bash's execute_cmd.c, shell_execve: EISDIR). just-bash said `Permission denied`.
export default {
  title: 'running a directory is "Is a directory", status 126',
  upstream: 'src/interpreter/command-resolution.ts resolveCommand: a directory path resolves to an "is_directory" error, reported by runCommand as "NAME: Is a directory" with status 126',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(a.isDirectory)return{error:"permission_denied",path:o};',
      replace: 'if(a.isDirectory)return{error:"is_directory",path:o};',
    },
    {
      find: 'if("error"in c)return c.error==="permission_denied"?D(`bash: ${t}: Permission denied\n`,126):',
      replace: 'if("error"in c)return c.error==="is_directory"?D(`bash: ${t}: Is a directory\\n`,126):c.error==="permission_denied"?D(`bash: ${t}: Permission denied\\n`,126):',
    },
  ],
};
