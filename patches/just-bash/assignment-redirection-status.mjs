// A command of only assignments (and redirections) has the status of its last command substitution, or 0 when it
// has none (bash's manual, "Simple Command Expansion"): `false; x=1; echo $?` prints 0, `x=$(false) >/dev/null;
// echo $?` prints 1. The messages of its expansions still reach the shell's stderr (`x=$(< nope) 2>/dev/null` shows
// the message: bash expands the assignments before it applies the redirections). just-bash kept the previous
// command's status without redirections and gave 0 with them, and dropped those messages with them. Its `set -x`
// trace and those messages are written where the shell's own fd 2 goes, not through the command's redirections
// (`exec 2>&1; set -x; x=1` traces on stdout; `x=1 2>/dev/null` is still traced); just-bash returned them as stderr.
export default {
  title: 'an assignment-only command has its last command substitution\'s status, or 0',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: note whether the assignments ran a command substitution (the "?" variable it sets); with no command name, give that status or 0, and route state.expansionStderr and the xtrace text through the shell\'s file descriptors (applyRedirections with none), before the result',
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
      // Its expansions' messages and its trace go where the shell's fd 2 goes (`exec 2>&1`: stdout).
      replace: 'let P=(this.ctx.state.expansionStderr||"")+o;this.ctx.state.expansionStderr="";return P?_jbTraceJoin(await rn(this.ctx,{stdout:"",stderr:P,exitCode:0},[],new Map,new Map,new Map),L("","",__jbS)):L("","",__jbS)}',
    },
    {
      find: 'let V=L("",o,0),q=await rn(this.ctx,V,t.redirections,R.targets,R.dupSources,R.standardRoutes);return $.finish(),q}',
      replace:
        // With redirections too: bash writes the trace and the messages before it applies them (`x=1 2>/dev/null`
        // is still traced).
        'let V=L("","",__jbS),q=await rn(this.ctx,V,t.redirections,R.targets,R.dupSources,R.standardRoutes);$.finish();let P=(this.ctx.state.expansionStderr||"")+o;this.ctx.state.expansionStderr="";return P?_jbTraceJoin(await rn(this.ctx,{stdout:"",stderr:P,exitCode:0},[],new Map,new Map,new Map),q):q}',
    },
  ],
};
