// jq 1.6's `input` with no input left raises the error "break" (its builtin is `def input: _input;` over a reader
// that answers a break at the end): `jq -n 'input, input' <<< 1` prints 1, then `jq: error (at <unknown>): break`
// (status 5), and `try input catch .` is "break". The queue is marked as ended, for the report's place
// (jq-inputs-end-location.mjs). just-bash raised jq 1.7's "No more inputs".
export default {
  title: 'jq 1.6: input with no input left raises "break"',
  upstream: 'src/commands/query-engine builtins input: raise "break" when the input queue is exhausted (and mark it ended)',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [{ find: 'throw new Error("No more inputs")', replace: '{if(q)q.eof=!0;throw new Error("break")}' }],
};
