// `cat <&-`, `read x <&-`, `exec 0<&-; wc -l`: a command whose standard input is closed fails reading it (bash:
// "read: read error: 0: Bad file descriptor", status 1; GNU tools "-: Bad file descriptor"). just-bash recorded the
// closed descriptor in the redirection table only, so commands saw an empty stdin and succeeded. The redirection
// setup now reports whether fd 0 ends closed (or inherits the enclosing command's answer when the list leaves fd 0
// alone); simple commands, compound commands and function bodies run with `state.stdinClosed` set to it, a later
// pipeline stage (whose stdin is the pipe) runs with it false, `read` from fd 0 fails on it, and commands see it as
// `ctx.stdinClosed`.
export default {
  title: 'a command sees its standard input closed (<&-) instead of empty',
  upstream: 'src/interpreter/redirections.ts prepareRedirections: return stdinClosed (fd 0 route closed); interpreter.ts executeSimpleCommand / pipeline.ts / functions.ts run with state.stdinClosed; builtins/read.ts fails on it; CommandContext.stdinClosed',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // the redirection list's answer: fd 0 closed by this list, else (fd 0 untouched) the enclosing answer
      find: 'standardRoutes:a,stdin:c,stdinSourceFd:u,error:null})',
      replace: 'standardRoutes:a,stdin:c,stdinSourceFd:u,stdinClosed:a.get(0)===f?e.state.stdinClosed??f?.kind==="closed":a.get(0)?.kind==="closed",error:null})',
    },
    {
      // a simple command runs with it
      find: 'v=await this.runCommand(u,f,d,n,!1,!1,g,y)}catch(P){',
      replace: 'let Z0=this.ctx.state.stdinClosed;this.ctx.state.stdinClosed=b.stdinClosed;try{v=await this.runCommand(u,f,d,n,!1,!1,g,y)}finally{this.ctx.state.stdinClosed=Z0}}catch(P){',
    },
    {
      // a compound command (group, loop, if, case, [[ ]], (( ))) with redirections runs with it
      find: 'try{let l=await r(i);return await rn(e,l,t,i.targets,i.dupSources,i.standardRoutes)}finally{',
      replace: 'let Z0=e.state.stdinClosed;try{e.state.stdinClosed=i.stdinClosed;let l=await r(i);return await rn(e,l,t,i.targets,i.dupSources,i.standardRoutes)}finally{e.state.stdinClosed=Z0,',
    },
    {
      // a function body runs with its call's answer
      find: 'f=null,d=Vn(e,t.redirections,yr);try{if(f=await d.prepare(r),f.error)return zn(f);',
      replace: 'f=null,Z0=e.state.stdinClosed,d=Vn(e,t.redirections,yr);try{if(f=await d.prepare(r),f.error)return zn(f);e.state.stdinClosed=f.stdinClosed;',
    },
    {
      find: 'finally{d.finish(),u()}}',
      replace: 'finally{e.state.stdinClosed=Z0,d.finish(),u()}}',
},
    {
      // a pipeline stage after the first reads the pipe
      find: 'p=e.state.groupStdinSourceFd;for(let g=0;g<t.commands.length;g++){let y=t.commands[g],S=g===t.commands.length-1,v=g===0;u&&(e.state.lastArg="",',
      replace: 'p=e.state.groupStdinSourceFd,Z1=e.state.stdinClosed;for(let g=0;g<t.commands.length;g++){let y=t.commands[g],S=g===t.commands.length-1,v=g===0;u&&(e.state.lastArg="",e.state.stdinClosed=v?Z1:!1,',
    },
    {
      find: 'finally{u&&(v&&(d=e.state.groupStdin,p=e.state.groupStdinSourceFd),',
      replace: 'finally{u&&(e.state.stdinClosed=Z1,v&&(d=e.state.groupStdin,p=e.state.groupStdinSourceFd),',
    },
    {
      // read from fd 0
      find: '}else!b&&e.state.groupStdin!==void 0&&(b=e.state.groupStdin);',
      replace: '}else{if(e.state.stdinClosed===!0)return L("",`bash: read: read error: 0: Bad file descriptor\n`,1);!b&&e.state.groupStdin!==void 0&&(b=e.state.groupStdin)}',
    },
    {
      // commands see it
      find: 'get stdin(){return p=!0,d},limits:i.limits',
      replace: 'get stdin(){return p=!0,d},stdinClosed:i.state.stdinClosed===!0,limits:i.limits',
    },
  ],
};
