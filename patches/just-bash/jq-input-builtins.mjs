// jq's `input` (the next input value, or the error `No more inputs`) and `inputs` (every value left), over the
// queue the jq command passes in its options (jq's manual, "I/O"); just-bash knew neither: `Unknown function`.
export default {
  title: 'jq input/inputs builtins take from the jq command\'s input queue',
  upstream: 'src/commands/query-engine/evaluator (context from options, builtins): keep options.inputs in the context; input and inputs take from it',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    { find: 'positionalArgs:e?.positionalArgs,coverage:e?.coverage', replace: 'positionalArgs:e?.positionalArgs,inputs:e?.inputs,coverage:e?.coverage' },
    {
      find: 'switch(n){case"getpath":',
      replace:
        'switch(n){case"input":{let q=r.inputs;if(!q||q.next>=q.values.length)throw new Error("No more inputs");return[q.values[q.next++]]}case"inputs":{let q=r.inputs;if(!q)return[];let a=q.values.slice(q.next);q.next=q.values.length;return a}case"getpath":',
    },
  ],
};
