// A `#!` script runs under the interpreter its first line names: execve(2) runs `INTERP [ARG] PATH ARGS…`, with
// everything after the interpreter's path as one argument (so `#!/usr/bin/env python3` runs env with `python3`, and
// env finds python3 on the PATH, or says it cannot). just-bash ran every script it found as a bash script, so
// `./tool.py` with `#!/usr/bin/env python3` failed with a bash syntax error, and `#!/usr/bin/env nope` ran its
// lines as bash. A script for sh, bash or dash (directly or through env) still runs as the shell's own script.
// Linux execve(2) "Interpreter scripts"; bash(1) "COMMAND EXECUTION".
export default {
  title: 'a #! script whose interpreter is not a shell runs as INTERP [ARG] PATH ARGS… (python3, node, awk -f, env NAME)',
  upstream: 'src/interpreter/command-resolution.ts runCommand: for a script file whose #! line names an interpreter other than sh/bash/dash (directly or through env), run that interpreter with the optional argument, the script path and the arguments',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'return t.includes("/")||H(c.path),await a(c.path,n,r)}let{cmd:u,path:f}=c;',
      replace:
        'if(Zh.startsWith("#!")){let Zl=Zh.slice(2,Zh.indexOf("\\n")<0?void 0:Zh.indexOf("\\n")).trim(),Zm=/^(\\S+)(?:\\s+(.*))?$/.exec(Zl),Zw=Zl.split(/\\s+/),Zb=P=>P.slice(P.lastIndexOf("/")+1),' +
        'Zn=Zb(Zw[0]??"")==="env"?Zw.find((P,$)=>$>0&&!P.startsWith("-"))??"":Zw[0]??"";' +
        'if(Zm&&!["sh","bash","dash"].includes(Zb(Zn)))return t.includes("/")||H(c.path),await e.runCommand(Zm[1],[...(Zm[2]?[Zm[2]]:[]),t.includes("/")?t:c.path,...n],[],r,!1,!1,-1)}' +
        'return t.includes("/")||H(c.path),await a(c.path,n,r)}let{cmd:u,path:f}=c;',
    },
  ],
};
