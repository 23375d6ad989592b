// A command of only assignments (and redirections) has the status of its last command substitution, or 0 when it
// has none (bash's manual, "Simple Command Expansion"): `false; x=1; echo $?` prints 0, `x=$(false) >/dev/null;
// echo $?` prints 1. The messages of its expansions still reach the shell's stderr (`x=$(< nope) 2>/dev/null` shows
// the message: bash expands the assignments before it applies the redirections). just-bash kept the previous
// command's status without redirections and gave 0 with them, and dropped those messages with them.
export default {
  title: 'an assignment-only command has its last command substitution\'s status, or 0',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: note whether the assignments ran a command substitution (the "?" variable it sets); with no command name, give that status or 0, and prepend state.expansionStderr to the stderr of the redirected form too',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The "?" variable is set by a command substitution (`$?` reads lastExitCode, not it): blank while the
      // assignments expand, it tells whether one ran.
      find: 'this.ctx.state.expansionStderr="";let s=await nf(this.ctx,t);',
      replace:
        'this.ctx.state.expansionStderr="";let __jbQ=this.ctx.state.env.get("?");this.ctx.state.env.set("?","");let s;try{s=await nf(this.ctx,t)}finally{this.ctx.state.env.get("?")===""&&(__jbQ===void 0?this.ctx.state.env.delete("?"):this.ctx.state.env.set("?",__jbQ),__jbQ=null)}let __jbS=__jbQ===null?0:this.ctx.state.lastExitCode;',
    },
    {
      find: 'let P=(this.ctx.state.expansionStderr||"")+o;return this.ctx.state.expansionStderr="",L("",P,this.ctx.state.lastExitCode)}',
      replace: 'let P=(this.ctx.state.expansionStderr||"")+o;return this.ctx.state.expansionStderr="",L("",P,__jbS)}',
    },
    {
      find: 'let V=L("",o,0),q=await rn(this.ctx,V,t.redirections,R.targets,R.dupSources,R.standardRoutes);return $.finish(),q}',
      replace:
        'let V=L("",o,__jbS),q=await rn(this.ctx,V,t.redirections,R.targets,R.dupSources,R.standardRoutes);return $.finish(),this.ctx.state.expansionStderr&&(q={...q,stderr:this.ctx.state.expansionStderr+q.stderr},this.ctx.state.expansionStderr=""),q}',
    },
  ],
};
