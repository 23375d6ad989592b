// With PATH unset or empty, bash looks a command up nowhere but the name itself, which execve cannot find:
// `PATH= ls` and `unset PATH; ls` print `bash: line 1: ls: No such file or directory`, status 127 (findcmd.c: an
// empty PATH is the current directory only; execute_cmd.c reports the failed execve). just-bash searched
// /usr/bin:/bin for an unset PATH and said `command not found` for an empty one. A run that stands for an execvp(3)
// rather than a shell (`env -i CMD`, a request's argv: the `keepEnvOrder` runs) still searches execvp's default
// path, /bin:/usr/bin, when PATH is unset.
export default {
  title: 'a command looked up with PATH unset or empty is "No such file or directory" (127)',
  upstream: 'src/interpreter/command-resolution.ts resolveCommand (and command -v, type): no default search path for an unset PATH; runCommand: word a failed lookup with PATH unset or empty as the ENOENT of execve',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'let _pd=null,s=(n??e.state.env.get("PATH")??"/usr/bin:/bin").split(":");', replace: 'let _pd=null,s=(n??e.state.env.get("PATH")??(e.state.keepEnvOrder?"/bin:/usr/bin":"")).split(":");' },
    { find: 'else if(e.commands.has(a)){let u=(e.state.env.get("PATH")??"/usr/bin:/bin").split(":")', replace: 'else if(e.commands.has(a)){let u=(e.state.env.get("PATH")??"").split(":")' },
    {
      find: ':D(`bash: ${t}: command not found\n`,127);if("error"in c)',
      replace: ':(i.state.env.get("PATH")??(i.state.keepEnvOrder?"/bin:/usr/bin":""))===""?D(`bash: ${t}: No such file or directory\\n`,127):D(`bash: ${t}: command not found\n`,127);if("error"in c)',
    },
  ],
};
