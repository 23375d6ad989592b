// bash puts `_=PATHNAME` (the full pathname of the program it runs, as found on PATH, or as written when it holds a
// `/`) into the environment of every program it starts (manual, "Special Parameters", `$_`): `env | grep ^_=` prints
// `_=/usr/bin/env`, and a child `bash -c 'echo $_'` starts with `/usr/bin/bash`. just-bash passed no `_` on. A run
// whose embedder starts the program itself rather than as a shell would (`env CMD` execs CMD with env's own
// environment: no `_` after `env -i`) asks for `keepUnderscore`: its exported `_`, if any, stays as it is.
export default {
  title: 'A program run from PATH or by path gets `_=PATHNAME` in its environment',
  upstream: 'src/interpreter/command-resolution.ts runCommand: the exported environment of a non-builtin command gets _ = the command as written when it holds a `/`, else its resolved path, unless the exec options asked keepUnderscore (src/interpreter/interpreter.ts exec: state.keepUnderscore)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let{cmd:u,path:f}=c;t.includes("/")||c.builtin||H(f);let d=r||i.state.groupStdin||"",p=!1,h=o();',
      replace: 'let{cmd:u,path:f}=c;t.includes("/")||c.builtin||H(f);let d=r||i.state.groupStdin||"",p=!1,h=o();c.builtin||i.state.keepUnderscore||(h={...h,_:t.includes("/")?t:f});',
    },
    {
      find: 'extraArgs:u.args,loginShell:u.loginShell===!0}',
      replace: 'extraArgs:u.args,loginShell:u.loginShell===!0,keepUnderscore:u.keepUnderscore===!0}',
    },
  ],
};
