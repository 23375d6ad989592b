// What a script's PATH does not hold still runs where the kernel would run it: the engine's own helper commands
// (`__spritzer_*`, which run a top-level command, line ends, statuses) are found whatever PATH is, and a `#!/bin/sh`
// or `#!/bin/bash` script (or one with no `#!` line) run by path is run by the shell at its absolute path, as
// execve(2) runs the interpreter its `#!` line names (bash's manual, "Shell Scripts"). Before, `PATH=/x; ./s.sh`
// and `PATH=dir s.sh` failed with `bash: command not found` (or `__spritzer_run: command not found`).
export default {
  title: "the engine's helper commands and a shell script's interpreter run whatever PATH holds",
  upstream: 'src/interpreter/command-resolution.ts: resolve internal helpers without PATH; run a shell script\'s interpreter by its absolute path',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: '{let B=e.commands.get(t);if(B&&Fn.has(t))return{cmd:B,path:`/usr/bin/${t}`,builtin:!0}}',
      // (a program, as it was when PATH found it: hashed under the name it runs, checked for execve's limits)
      replace: '{let B=e.commands.get(t);if(B&&Fn.has(t))return{cmd:B,path:`/usr/bin/${t}`,builtin:!0};if(B&&t.startsWith("__spritzer_"))return{cmd:B,path:`/usr/bin/${t}`}}',
    },
    {
      find: 'if(i.commands?.get("bash"))return t.includes("/")||H(c.path),await e.runCommand("bash",[t.includes("/")?t:c.path,...n],[],r,!1,!1,-1);',
      replace: 'if(i.commands?.get("bash"))return t.includes("/")||H(c.path),await e.runCommand("/usr/bin/bash",[t.includes("/")?t:c.path,...n],[],r,!1,!1,-1);',
    },
  ],
};
