// With `set -x` bash traces an array assignment as written, before its elements are expanded: `a=(1 'b c')` traces
// `+ a=(1 'b c')`, `x+=(a)` traces `+ x+=(a)`, the words joined by one space (`a=( 1 )` as `a=(1)`), then the
// traces of the elements' substitutions. just-bash traced nothing for it. The words are printed by xtrace-for-case-heads' _jbTraceWord.
export default {
  title: 'set -x traces a compound array assignment',
  upstream: 'src/interpreter/assignment-expansion.ts (array assignment): when xtrace is on, add PS4 + NAME=(WORDS) (serialized words) to the xtrace output before expanding the elements, and the elements\' expansion stderr after it',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let a=e.state.associativeArrays?.has(n),l=Pe(e,n),c=l?Me(l):void 0,u=e.state.env.get(n),f=()=>{',
      replace:
        'e.state.options.xtrace&&(o+=`${await Ju(e)}${n}${s?"+=":"="}(${r.map(_jbTraceWord).join(" ")})\n`);let a=e.state.associativeArrays?.has(n),l=Pe(e,n),c=l?Me(l):void 0,u=e.state.env.get(n),f=()=>{',
    },
    {
      find: 'return{continueToNext:!0,xtraceOutput:o}}function um(',
      replace: 'return e.state.options.xtrace&&e.state.expansionStderr&&(o+=e.state.expansionStderr,e.state.expansionStderr=""),{continueToNext:!0,xtraceOutput:o}}function um(',
    },
  ],
};
