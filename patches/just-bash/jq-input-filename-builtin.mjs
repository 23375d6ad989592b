// jq's `input_filename`: the name of the file the current input value came from (`<stdin>` for stdin and `-`), null
// before any input was read (-n); just-bash had no such builtin (`Unknown function`). It reads the queue's positions
// (jq-input-remembers-file.mjs: `FILE:N`, `<stdin>:N`, `<unknown>`). jq 1.6 src/builtin.c f_input_filename.
export default {
  title: 'jq input_filename: the current input\'s file name (<stdin> for stdin, null before any input)',
  upstream: 'src/commands/query-engine builtins: input_filename from the input queue\'s current source',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'switch(n){case"input":{',
      replace: 'switch(n){case"input_filename":{let q=r.inputs,a=q&&q.next>0&&q.at?q.at[q.next-1]:void 0;let f=a===void 0||a==="<unknown>"?null:a.replace(/:\\d+$/,"");return[f==="-"?"<stdin>":f]}case"input":{',
    },
  ],
};
