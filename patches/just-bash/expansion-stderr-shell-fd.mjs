// What a command's word expansions write to stderr (a command substitution's messages and traces, a here-document
// body's `$(…)`) is written while the shell expands the words, before it applies the command's redirections and runs
// it: it goes where the shell's own fd 2 goes (`exec 2>&1` sends it to stdout, before the command's output), never
// through the command's redirections. just-bash prepended it to the command's stderr after the redirections, so
// after `exec 2>&1` it stayed on stderr, and behind a here-document's output it came after the body. It now goes
// through the shell's descriptors and comes first, as a trace does (xtrace-before-output's join).
export default {
  title: 'a word expansion\'s messages go to the shell\'s stderr, before the command\'s output',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: route state.expansionStderr through the shell\'s file descriptors (applyRedirections with no redirections) and put it before the command\'s output, instead of prepending it to the redirected stderr',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The placed text (error-message-place) routed as a trace is; the original code then finds nothing left.
      find: 'return i.size>0&&this.ctx.state.tempEnvBindings&&this.ctx.state.tempEnvBindings.pop(),',
      replace:
        'if(this.ctx.state.expansionStderr){let E=__jbPlace(this.ctx,this.ctx.state.expansionStderr);this.ctx.state.expansionStderr="",v=_jbTraceJoin(await rn(this.ctx,{stdout:"",stderr:E,exitCode:0},[],new Map,new Map,new Map),v)}' +
        'return i.size>0&&this.ctx.state.tempEnvBindings&&this.ctx.state.tempEnvBindings.pop(),',
    },
    {
      // Under set -x each assignment's value is expanded, then traced, in order (`x=1 y=$(echo b)` traces `+ x=1`,
      // `++ echo b`, `+ y=b`): what the expansion wrote joins the traces before its own.
      find: 'r+=c.xtraceOutput,c.continueToNext}return{continueToNext:!1,xtraceOutput:r,tempAssignments:n}}',
      replace: 'e.state.options.xtrace&&e.state.expansionStderr&&(r+=e.state.expansionStderr,e.state.expansionStderr=""),r+=c.xtraceOutput,c.continueToNext}return{continueToNext:!1,xtraceOutput:r,tempAssignments:n}}',
    },
  ],
};
