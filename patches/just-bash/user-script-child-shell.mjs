// A shell script run by its path (`/tmp/s.sh`, `./run.sh`, a script found on PATH) runs in a new bash process, as
// `bash PATH ARGS…` would (bash(1) "COMMAND EXECUTION": a file that is not a binary runs in a subshell initialised as
// a new shell): only exported variables and functions reach it, `${BASH_SOURCE[0]}` is its path, its traps and
// functions are its own. just-bash ran it inside the caller's interpreter state, so where the engine had not already
// rewritten the call to the `bash` command (a script with a here-document, `x=$(./s.sh)`, `./s.sh | cat`) its
// BASH_SOURCE was empty and its ERR trap ran after it returned, in the caller, where its functions did not exist.
export default {
  title: 'a shell script run by path runs as `bash PATH ARGS…`, a new shell',
  upstream: 'src/interpreter/command-resolution.ts runCommand: a script file for sh/bash (or with no #! line) runs through the registered `bash` command when there is one, instead of executeUserScript in the current state',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'return t.includes("/")||H(c.path),await a(c.path,n,Zl?r:r||void 0,t.includes("/")?t:c.path)}',
      replace:
        'if(i.commands?.get("bash"))return t.includes("/")||H(c.path),await e.runCommand("bash",[t.includes("/")?t:c.path,...n],[],r,!1,!1,-1);' +
        'return t.includes("/")||H(c.path),await a(c.path,n,Zl?r:r||void 0,t.includes("/")?t:c.path)}',
    },
  ],
};
