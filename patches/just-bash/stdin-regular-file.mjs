// `wc < f` counts a regular file: GNU wc (like every program that fstat()s its stdin) sees fd 0 is a regular file
// and sizes its columns from the file's size, as for a file operand (` 3  6 32`), not 7 wide as for a pipe. just-bash
// gave a command only its stdin's bytes. A `<` redirection of fd 0 from a regular file (not a device: `< /dev/null` is
// a character device) now marks the command's stdin as one, through the state that already says whether fd 0 is
// closed (closed-stdin): `state.stdinClosed` is `"file"` then, so compound commands, function bodies and a
// pipeline's first stage inherit it as they inherit a closed fd 0; a command reads it as `ctx.stdinRegular`.
// @deviation `exec < f` and `<&N` from a descriptor opened on a file are not marked (counted as pipes).
export default {
  title: 'a command whose stdin is redirected from a regular file knows it (ctx.stdinRegular)',
  upstream: 'src/interpreter/redirections.ts prepareRedirections: record that fd 0 was redirected from a regular file (stat: a file, not a device) and carry it with stdinClosed; CommandContext.stdinRegular',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // preparation: the `<` of fd 0 from a regular file keeps its route entry, to recognise it at the end
      find: 'else if(y.operator==="<"){let A=e.fs.resolvePath(e.state.cwd,v);try{c=await vn(e.fs,A),u=-1,m(S,{kind:"input",content:c})}catch{',
      replace:
        'else if(y.operator==="<"){let A=e.fs.resolvePath(e.state.cwd,v);try{c=await vn(e.fs,A),u=-1;let Zf={kind:"input",content:c};' +
        'if(S===0||S===null){let Zs=await e.fs.stat(A).catch(()=>null);Zs?.isFile&&Zs.device!==!0&&(Zr=Zf)}m(S,Zf)}catch{',
    },
    {
      find: 'let d=()=>({targets:s,dupSources:i,standardRoutes:a,stdin:c,stdinSourceFd:u,stdinClosed:a.get(0)===f?e.state.stdinClosed??f?.kind==="closed":a.get(0)?.kind==="closed",error:null})',
      replace: 'let Zr,d=()=>({targets:s,dupSources:i,standardRoutes:a,stdin:c,stdinSourceFd:u,stdinClosed:a.get(0)===f?e.state.stdinClosed??f?.kind==="closed":a.get(0)===Zr&&Zr?"file":a.get(0)?.kind==="closed",error:null})',
    },
    {
      find: 'get stdin(){return p=!0,d},stdinClosed:i.state.stdinClosed===!0,',
      replace: 'get stdin(){return p=!0,d},stdinClosed:i.state.stdinClosed===!0,stdinRegular:i.state.stdinClosed==="file",',
    },
  ],
};
