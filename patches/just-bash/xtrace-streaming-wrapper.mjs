// With `set -x`, a script or shell that the engine streams is traced as the user wrote it. The engine rewrites
// `./run.sh` and `bash FILE` to its streaming wrapper (`__spritzer_run ./run.sh`), and gives the commands of a
// literal `sh -c '…'` script redirections to its output sinks (`>| /dev/.spritzer/stdout 2>| /dev/.spritzer/stderr`,
// src/server/machines/memory/shell/output-sink.ts); bash traces the command as written (`+ ./run.sh`,
// `+ bash -c 'echo z'`), so the trace leaves out the wrapper's name and the sink redirections.
export default {
  title: 'set -x does not show the engine\'s streaming wrapper or output sinks',
  upstream: 'src/interpreter/helpers/xtrace.ts (traceSimpleCommand): spritzer-specific, not for upstream: leave out the engine\'s streaming wrapper name and its output-sink redirections',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function ef(e,t,n){if(!e.state.options.xtrace)return"";let r=await Ju(e),s=[t,...n],',
      replace:
        'async function ef(e,t,n){if(!e.state.options.xtrace)return"";let r=await Ju(e),s=(t==="__spritzer_run"&&n.length?[...n]:[t,...n]).map(a=>a.includes("/dev/.spritzer/")?a.replace(/ 2?>\\| \\/dev\\/\\.spritzer\\/std(?:out|err)/g,""):a),',
    },
  ],
};
