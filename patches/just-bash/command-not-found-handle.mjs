// A command the shell cannot find runs the function `command_not_found_handle` when one is defined, with the command
// and its arguments; its status is the command's (bash(1) "COMMAND EXECUTION": "If that function exists, it is
// invoked in a separate execution environment with the original command and the original command's arguments as its
// arguments, and the function's exit status becomes the exit status of that subshell"). just-bash ignored it and
// printed `command not found` (127). A command not found inside the handler itself is reported as usual.
// @deviation the handler runs in the shell itself, not a subshell: a variable it assigns stays set after it.
export default {
  title: 'command_not_found_handle runs for a command not found',
  upstream: 'src/interpreter/command-resolution: when a command is not found and a function command_not_found_handle exists (and is not already running), run it in a subshell with the command and its arguments',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(!c)return ru(t)?D(',
      replace: 'if(!c&&i.state.functions?.has("command_not_found_handle")&&!i.state.spzNotFoundHandler){i.state.spzNotFoundHandler=!0;try{return await e.runCommand("command_not_found_handle",[t,...n],[],r,!1,!1,-1)}finally{i.state.spzNotFoundHandler=!1}}if(!c)return ru(t)?D(',
    },
  ],
};
