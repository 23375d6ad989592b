// A command of assignments only (`x=1`) returns the status of its last command substitution, or 0 when it has none
// (bash's manual, "Simple Command Expansion"): `false; x=1; echo $?` prints 0. just-bash returned the previous
// command's status, so under `set -e` an assignment after a failed test (an `until` body) ended the script.
export default {
  title: 'x=1 returns 0 unless a command substitution in it failed',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: for a command with no name, return the last command substitution\'s status (track whether one ran) or 0, not state.lastExitCode as it was before',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // Whether a substitution ran is seen by "$?" in the variables: every substitution sets it, so it is cleared first.
      find: 'this.ctx.state.expansionStderr="";let s=await nf(this.ctx,t);',
      replace: 'this.ctx.state.expansionStderr="";t.name||this.ctx.state.env.delete("?");let s=await nf(this.ctx,t);',
    },
    {
      find: 'let P=(this.ctx.state.expansionStderr||"")+o;return this.ctx.state.expansionStderr="",L("",P,this.ctx.state.lastExitCode)}',
      replace: 'let P=(this.ctx.state.expansionStderr||"")+o;return this.ctx.state.expansionStderr="",L("",P,this.ctx.state.env.has("?")?this.ctx.state.lastExitCode:(this.ctx.state.env.set("?",String(this.ctx.state.lastExitCode)),0))}',
    },
  ],
};
