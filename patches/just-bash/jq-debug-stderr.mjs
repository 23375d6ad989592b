// jq's `debug` writes `["DEBUG:",<its input>]` (compact, keys sorted under -S) on standard error and passes its input
// on (jq's manual, "debug"; src/main.c debug_cb); just-bash passed the input on and wrote nothing. The jq command
// gives the evaluation context a sink for those lines, which go to stderr in order with the error messages. The
// context a variable binding or a pattern makes (`. as $x | …`) now keeps that sink and the input queue, which it
// dropped, so `1 as $x | input` failed with "break".
export default {
  title: 'jq debug writes ["DEBUG:",value] on stderr; a variable binding keeps the input queue',
  upstream: 'src/commands/query-engine/evaluator (debug builtin; the context made for a binding keeps inputs and the debug sink) and src/commands/jq/jq.ts (the sink appends to stderr)',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    { find: 'case"debug":return[e];', replace: 'case"debug":return r.jqIo?.debug?.(e),[e];' },
    { find: 'coverage:e.coverage,budget:e.budget}}function W(', replace: 'coverage:e.coverage,budget:e.budget,inputs:e.inputs,jqIo:e.jqIo}}function W(' },
    { find: 'requireDefenseContext:e?.requireDefenseContext,defenseContextChecked:!1,', replace: 'requireDefenseContext:e?.requireDefenseContext,jqIo:e?.jqIo,defenseContextChecked:!1,' },
  ],
};
