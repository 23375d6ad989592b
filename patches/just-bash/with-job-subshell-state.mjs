// A background job (`cmd &`) is a subshell: bash(1) "Lists" and "COMMAND EXECUTION ENVIRONMENT" give it a copy of
// the shell's execution environment: its functions, arrays, attributes (integer, case, readonly, exported,
// nameref), `set` options and `shopt` options. The shell engine runs each job as its own execution (its output
// streams while the shell goes on), which started from the environment variables only: `f &` was `f: command not
// found`, `${a[1]}` empty, `set -e` and `pipefail` off. A command now gets `spzSubshellState()`, a copy of that part
// of the shell's state taken when it is called, and an execution given it as `spzSubshell` starts from it.
export default {
  title: 'a background job starts from a copy of the shell: functions, arrays, attributes, options',
  upstream: 'src/interpreter/interpreter.ts (CommandContext): expose a snapshot of the subshell-inherited state; src/Bash.ts execInScope: an option to start from such a snapshot',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function ot(e){',
      replace:
        'function __jbSubshellState(S){let c=(x)=>x&&new Set(x);return{functions:new Map(S.functions),arrays:ot(S.arrays),options:{...S.options},shoptOptions:{...S.shoptOptions},' +
        'readonlyVars:c(S.readonlyVars),exportedVars:c(S.exportedVars),exportedFuncs:c(S.exportedFuncs),associativeArrays:c(S.associativeArrays),integerVars:c(S.integerVars),' +
        'lowercaseVars:c(S.lowercaseVars),uppercaseVars:c(S.uppercaseVars),declaredVars:c(S.declaredVars),namerefs:c(S.namerefs)}}function ot(e){',
    },
    {
      find: 'fileDescriptors:i.state.fileDescriptors,xpgEcho:',
      replace: 'spzSubshellState:()=>__jbSubshellState(i.state),fileDescriptors:i.state.fileDescriptors,xpgEcho:',
    },
    {
      find: 'keepEnvOrder:u.keepEnvOrder===!0},w=t;',
      replace: 'keepEnvOrder:u.keepEnvOrder===!0,...(u.spzSubshell??{})},w=t;',
    },
  ],
};
