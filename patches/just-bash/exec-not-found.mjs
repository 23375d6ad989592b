// `exec NAME` where no command NAME exists: bash's exec builtin says `exec: NAME: not found` (status 127), not the
// `NAME: command not found` of a command run without exec (bash's builtins/exec.def, sh_notfound); a NAME with a
// slash is still `NAME: No such file or directory`. Once NAME ran, the shell it replaced is gone, and so is its EXIT
// trap: the `exit` that follows an `exec` (src/server/machines/memory/shell/script-ast.ts) must not run it.
export default {
  title: 'exec of a command not found says "exec: NAME: not found"; a command exec ran drops the EXIT trap',
  upstream: 'src/interpreter/builtin-dispatch.ts (exec): report a command the lookup did not find as exec\'s own "not found"; clear the EXIT trap once the command ran',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'try{return{...await u(f,d,[],s,!1,!1,-1,l),internalProducerOmitsShellPrefix:!0}}',
      replace:
        'try{let _r=await u(f,d,[],s,!1,!1,-1,l),_e=_r.stderr??"",_n=`${f}: command not found\n`,_p=_e.slice(0,-_n.length);' +
        // One line naming the command, whatever the shell's prefix (`bash: line 1: `, `./run.sh: line 3: `).
        'if(_r.exitCode===127&&_e.endsWith(_n)&&!_p.includes("\\n"))_r={..._r,stderr:`${_p}exec: ${f}: not found\n`};' +
        'else if(!((_r.exitCode===127||_r.exitCode===126)&&_e.includes(`${f}: `)&&!_e.slice(0,-1).includes("\\n")))c.state.traps?.delete("EXIT");' +
        'return{..._r,internalProducerOmitsShellPrefix:!0}}',
    },
  ],
};
