// A command name found in PATH only as a file without execute permission is that file, and running it fails as
// execve(2) does: `bash: /dir/tool: Permission denied`, status 126 (bash's findcmd.c find_user_command_in_path keeps
// the first such file when no executable one exists; execute_cmd.c reports EACCES with the full path). just-bash
// skipped the file and said `command not found`, status 127.
export default {
  title: 'a non-executable file in PATH is "Permission denied" (126), not "command not found"',
  upstream: 'src/interpreter/command-resolution.ts resolveCommand: remember the first non-executable regular file met in PATH and resolve to a permission_denied error on it when nothing executable is found; runCommand names the file\'s path in the message',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let s=(n??e.state.env.get("PATH")??"/usr/bin:/bin").split(":");for(let o of s){if(!o)continue;let l=',
      replace: 'let _pd=null,s=(n??e.state.env.get("PATH")??"/usr/bin:/bin").split(":");for(let o of s){if(!o)continue;let l=',
    },
    {
      find: 'if(u){if(f&&!d)return{script:!0,path:l};if(!f)return{script:!0,path:l}}}catch{}}',
      replace: 'if(u){if(f&&!d)return{script:!0,path:l};if(!f)return{script:!0,path:l}}else f&&d||(_pd??=l)}catch{}}',
    },
    { find: 'return null}async function Fs(', replace: 'return _pd?{error:"permission_denied",path:_pd,spzShown:_pd}:null}async function Fs(' },
    // The message names the file; it is placed (`bash: line N: `) by error-message-place's helper, as runCommand's
    // placing recognises only messages that start with the command's name.
    {
      find: 'c=await Xu(i,t,s?"/usr/bin:/bin":void 0);',
      replace: 'c=await Xu(i,t,s?"/usr/bin:/bin":void 0);if(c?.spzShown)return D(__jbPlace(i,`bash: ${c.spzShown}: Permission denied\\n`),126);',
    },
  ],
};
