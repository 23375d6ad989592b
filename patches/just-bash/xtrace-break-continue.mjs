// With `set -x`, `break` and `continue` are traced (`+ break`, `+ continue`) as any command is, before they run:
// the trace travels with the loop-control signal to the loop, which writes it with the rest of its output (so
// through the loop's redirections, in order with the loop's own traces). just-bash built the trace and then threw
// the signal without it.
export default {
  title: 'set -x traces break and continue',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: when the command throws break/continue, prepend the command\'s xtrace line to the signal\'s stderr before rethrowing',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'w.finish(),k)throw k;', replace: 'w.finish(),k)throw A&&"levels"in k&&(k.stderr=A+(k.stderr??"")),k;' },
  ],
};
