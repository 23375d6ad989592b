// jq's `input_filename` is the name of the file the current input value came from (`<stdin>` for stdin; null before
// any input was read, as with -n). The jq command's input queue now carries where each value was read (its `(at FILE:N)`
// positions), for the builtin (jq-input-filename-builtin.mjs). jq 1.6 src/util.c jq_util_input_get_current_filename.
export default {
  title: 'jq input queue: where each input value was read, for input_filename',
  upstream: 'src/commands/jq/jq.ts jq: keep each input value\'s file name beside it in the queue passed to the evaluator',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [{ find: 'n.inputs=QI;', replace: 'QI.at=IL;n.inputs=QI;' }],
};
