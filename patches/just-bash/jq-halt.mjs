// jq's `halt` stops the program with status 0, and `halt_error` / `halt_error(code)` stop it with status 5 / code,
// writing the input on stderr: a string as it is (no newline added), null not at all, any other value as compact
// JSON and a newline (jq's manual, "halt", "halt_error"; src/main.c). The outputs made before stay printed, no
// further input is read, and `try` does not catch it. just-bash knew neither ("Unknown function", status 3).
// The stop travels as an execution-limit error (which every `try`, `?`, `//` and partial-result path rethrows)
// marked `jqHalt`; the jq command (jq-writes-debug-and-halt) turns it into the status and the message.
export default {
  title: 'jq halt and halt_error stop the program with their status and message',
  upstream: 'src/commands/query-engine/evaluator builtins: halt, halt_error/0, halt_error/1 raise a halt the jq command reports',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'switch(n){case"builtins":',
      replace: 'switch(n){case"halt":throw Object.assign(new g("jq halt","halt"),{jqHalt:{code:0}});case"halt_error":{let A=t.length>0?d(e,t[0],r)[0]:5;if(typeof A!="number")throw new Error(`${__jqOperandText(e)} halt_error/1: number required`);throw Object.assign(new g("jq halt","halt"),{jqHalt:{code:A,message:e}})}case"builtins":',
    },
  ],
};
