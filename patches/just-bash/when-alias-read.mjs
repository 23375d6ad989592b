// bash expands an alias when it reads a command, not when it runs it (bash(1) "ALIASES": "The rules concerning the
// definition and use of aliases are somewhat confusing. Bash always reads at least one complete line of input …
// before executing any of the commands on that line. Aliases are expanded when a command is read, not when it is
// executed. Therefore, an alias definition appearing on the same line as another command does not take effect until
// the next line of input is read"): `alias hi='echo x'; hi` on one line runs `hi`, not the alias. just-bash expanded
// at run time. Each run of a parsed text (the script, an `eval` or `source`d text) now notes, at the first command
// it runs on each line, which aliases exist then; a command expands only those.
// @deviation The unit is the line, not the complete command bash reads: an alias defined inside a multi-line
// compound command (a loop body) takes effect on its later lines.
export default {
  title: 'an alias takes effect from the next line read, not on the line that defines it',
  upstream: 'src/interpreter/interpreter.ts: executeScript keeps, per line of its text, the aliases defined when that line started to run; executeSimpleCommandInner expands only those',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async executeScript(t){this.assertDefenseContext("execution");',
      replace:
        'async executeScript(t){let Zp=this.ctx.state.__jbAliasLines;this.ctx.state.__jbAliasLines=new Map;try{return await this.__jbExecuteScript(t)}finally{this.ctx.state.__jbAliasLines=Zp}}' +
        'async __jbExecuteScript(t){this.assertDefenseContext("execution");',
    },
    {
      find: 't.line!==void 0&&(this.ctx.state.currentLine=t.line),this.ctx.state.shoptOptions.expand_aliases&&t.name){let P=t,$=0;for(;;){let R=this.expandAlias(P);if(R===P)break;',
      replace:
        't.line!==void 0&&(this.ctx.state.currentLine=t.line),this.ctx.state.__jbAliasLines&&!this.ctx.state.__jbAliasLines.has(this.ctx.state.currentLine)&&this.ctx.state.__jbAliasLines.set(this.ctx.state.currentLine,new Set([...this.ctx.state.env.keys()].filter(q=>q.startsWith("BASH_ALIAS_")))),' +
        'this.ctx.state.shoptOptions.expand_aliases&&t.name){let P=t,$=0,Zr=this.ctx.state.__jbAliasLines?.get(this.ctx.state.currentLine);for(;;){if(Zr&&P.name&&!Zr.has(`BASH_ALIAS_${kl(P.name)}`))break;let R=this.expandAlias(P);if(R===P)break;',
    },
  ],
};
