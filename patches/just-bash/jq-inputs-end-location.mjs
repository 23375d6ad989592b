// Once `input` has found the input queue ended (jq-input-end-break.mjs) and the last input did not end with a
// newline (its last value ended with the text, so jq 1.6 closed that input's parser), jq 1.6 has no current input to
// name: `printf 1 | jq -n 'input, input'` reports `jq: error (at <unknown>): break`; with a final newline the place
// stays `<stdin>:N` (`<stdin>:0` for an empty input). jq 1.6 src/util.c jq_util_input_get_position (no parser left).
export default {
  title: 'jq: an error after input found no input left is reported at <unknown> when the last input had no final newline',
  upstream: 'src/commands/jq/jq.ts: the error position is <unknown> once the input queue is exhausted by input',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'jq: error (at ${QI.next>0?IL[QI.next-1]??IL[IL.length-1]:"<unknown>"})',
      replace: 'jq: error (at ${QI.eof&&D.length&&D[D.length-1].content===""?__jqAt(D[D.length-1].source,"",0):QI.eof&&!/\\n$/.test(D[D.length-1]?.content??"")?"<unknown>":QI.next>0?IL[QI.next-1]??IL[IL.length-1]:"<unknown>"})',
    },
  ],
};
