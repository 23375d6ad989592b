// jq's @csv quotes every string of the array, doubling its inner quotes, and leaves numbers and booleans bare:
// `[["a",1]] | .[] | @csv` prints `"a",1`. jq's manual, "Format strings and escaping"; just-bash quoted a string only
// when it held a comma, a quote or a line break, so CSV consumers saw `a,1`.
export default {
  title: 'jq @csv quotes every string',
  upstream: 'src/commands/query-engine/builtins/format-builtins.ts @csv: always wrap a string in double quotes (inner quotes doubled)',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'return o.includes(",")||o.includes(\'"\')||o.includes(`\n`)||o.includes("\\r")?`"${o.replace(/"/g,\'""\')}"`:o}).join(",")',
      replace: 'return`"${o.replace(/"/g,\'""\')}"`}).join(",")',
    },
  ],
};
