// `$BASH_COMMAND` is the command being run as bash prints it (print_cmd.c): words as they were written
// (`[ "$1" != 2 ]`, not `[ "$1" \!= 2 \]`), redirections in bash's spelling (`2>&1`, `1>&2`, `> f`), `[[ … ]]`,
// `(( … ))` and an ended `( … )` as commands of their own (without the engine's own output redirections inside),
// and an assignment whose value runs a command substitution (`x=$(false)`) as itself, not the substitution's last
// command. just-bash escaped the words for re-parsing, kept the previous simple command for `[[ ]]` and `(( ))`,
// and let a substitution's commands replace the outer one.
export default {
  title: '$BASH_COMMAND as bash prints the command',
  upstream: 'src/interpreter (BASH_COMMAND): print the current command as bash does; set it for [[ ]] and (( )); keep it across a command substitution',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The command as bash prints it: words as written, redirections in bash's spelling.
      find: "case\"BASH_COMMAND\":{let c=e.state.currentCommand,h=e.state.hiddenRedirections;return c?._text!==void 0?c._text:c&&c.type!==\"SimpleCommand\"?El(c):c?zd(h?{...c,redirections:c.redirections.filter(r=>!r.target?.parts?.every?.(p=>p.type===\"Literal\")||!r.target.parts.map(p=>p.value).join(\"\").startsWith(h))}:c):\"\"}",
      replace: "case\"BASH_COMMAND\":{let c=e.state.currentCommand,h=e.state.hiddenRedirections;if(c?._text!==void 0)return c._text;if(c&&h)c={...c,redirections:c.redirections.filter(r=>!r.target?.parts?.every?.(p=>p.type===\"Literal\")||!r.target.parts.map(p=>p.value).join(\"\").startsWith(h))};return c?h?__jbFnText(null,null,c).replace(new RegExp(` \\\\d*>\\\\| ${h.replace(/[.*+?^${}()|[\\]\\\\]/g,\"\\\\$&\")}\\\\S*`,\"g\"),\"\"):__jbFnText(null,null,c):\"\"}",
    },
    {
      // `(( … ))` is a command of its own.
      find: "case\"ArithmeticCommand\":return await _jbDebugTrap(this.ctx,t),this.executeArithmeticCommand(t);",
      replace: "case\"ArithmeticCommand\":return this.ctx.state.inTrap||(this.ctx.state.currentCommand=t),await _jbDebugTrap(this.ctx,t),this.executeArithmeticCommand(t);",
    },
    {
      // `[[ … ]]` is a command of its own.
      find: "case\"ConditionalCommand\":return await _jbDebugTrap(this.ctx,t),this.executeConditionalCommand(t);",
      replace: "case\"ConditionalCommand\":return this.ctx.state.inTrap||(this.ctx.state.currentCommand=t),await _jbDebugTrap(this.ctx,t),this.executeConditionalCommand(t);",
    },
    {
      // A command substitution runs in a subshell: the commands it runs leave the outer BASH_COMMAND alone.
      find: "let l=e.state.bashPid;if(t.spzNodes){",
      replace: "let l=e.state.bashPid,_jbCc=e.state.currentCommand;if(t.spzNodes){",
    },
    {
      find: "e.state.lastExitCode=h,e.state.env.set(\"?\",String(h)),p.stderr&&(e.state.expansionStderr=(e.state.expansionStderr||\"\")+p.stderr),e.state.bashPid=l,",
      replace: "e.state.lastExitCode=h,e.state.env.set(\"?\",String(h)),p.stderr&&(e.state.expansionStderr=(e.state.expansionStderr||\"\")+p.stderr),e.state.bashPid=l,e.state.currentCommand=_jbCc,",
    },
    {
      find: "e.state.traps=_tr,e.state.trapOutput=_to,e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.bashPid=l,",
      replace: "e.state.traps=_tr,e.state.trapOutput=_to,e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.bashPid=l,e.state.currentCommand=_jbCc,",
    },
    {
      // A `( … )` subshell is, once it ended, the command the parent shell ran (its ERR trap shows `( cmd )`).
      find: "case\"Subshell\":return this.executeSubshell(t,n,r);",
      replace: "case\"Subshell\":return this.executeSubshell(t,n,r).finally(()=>{this.ctx.state.inTrap||(this.ctx.state.currentCommand=t)});",
    },
  ],
};
