// jq -j (--join-output) is -r without the newline after each result: `jq -j '.[]' <<< '["a","b"]'` prints `ab`.
// jq's manual, "Invoking jq"; just-bash only dropped the newlines and kept printing strings as JSON (`"a""b"`).
export default {
  title: 'jq -j prints strings raw',
  upstream: 'src/commands/jq/jq.ts jq: --join-output implies --raw-output when formatting each result',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [{ find: '{compact:a,raw:m,sortKeys:E', replace: '{compact:a,raw:m||h,sortKeys:E' }],
};
