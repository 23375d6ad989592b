// Under `shopt -s failglob` a pattern that matches nothing is an expansion error whose message carries the shell's
// place as its other messages do (`bash: line 1: no match: *.x`, `t.sh: line 2: no match: *.x`). just-bash wrote it
// without the line, and after what the next commands of a nested script wrote.
export default {
  title: 'the failglob message names its line',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommand (GlobError): prefix the message with the script name and line as the other shell errors are',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(r?.finish(),s instanceof Lt)return this.ctx.state.spzDiscard=!0,D(s.stderr);throw s}',
      // (written at once to the shell's stderr sink of a streamed command, patch xtrace-written-at-once, so that it
      // comes before what the next commands write)
      replace: 'if(r?.finish(),s instanceof Lt){let Zm=__jbPlace(this.ctx,s.stderr),Zt=__jbTraceSink(this.ctx,t.redirections);Zt&&(await this.ctx.fs.appendFile(Zt,Zm),Zm="");return this.ctx.state.spzDiscard=!0,D(Zm)}throw s}',
    },
  ],
};
