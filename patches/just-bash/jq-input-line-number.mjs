// jq's `input_line_number` is the number of lines jq has read from the current input so far: jq feeds its parser a
// line at a time, so it is the count of newlines up to the end of the line the value ended on (`printf '1\n2\n' |
// jq input_line_number` gives 1 then 2; a value ending the text without a newline counts the lines before it; 0
// before any input, as under -n). just-bash answered 1 always. The jq command already keeps each input's position
// (`<stdin>:N`, for its error messages) beside the input queue; the builtin reads N from there.
export default {
  title: 'jq input_line_number counts the lines read so far',
  upstream: 'src/commands/query-engine/evaluator input_line_number: the line of the current input\'s end, from the input queue\'s positions',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'case"input_line_number":return[1];',
      replace: 'case"input_line_number":{let q=r.inputs,a=q&&q.next>0&&q.at?q.at[q.next-1]:void 0;return[a===void 0||a==="<unknown>"?0:Number(a.slice(a.lastIndexOf(":")+1))||0]}',
    },
  ],
};
