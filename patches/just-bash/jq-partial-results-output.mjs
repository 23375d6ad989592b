// The jq command's side of jq-partial-results-evaluator: when a run of the filter on one input fails, the outputs
// the whole filter made before the error are printed, then the error (jq prints each output as it is made).
export default {
  title: 'jq prints the outputs made before an error in the same input\'s run (command side)',
  upstream: 'src/commands/jq/jq.ts jq: on an evaluation error, append the partial results the error carries for the root filter before reporting it',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'catch(err){JL=!0;if(err instanceof H||err instanceof j||/Unknown function/.test(err?.message))throw err;',
      replace: 'catch(err){JL=!0;if(err instanceof H||err instanceof j||/Unknown function/.test(err?.message))throw err;if(err?.jqPartial?.node===r)l(e,err.jqPartial.results);',
    },
  ],
};
