// jq's `break $label` ends the label's body keeping every output made before it (`label $out | 1, break $out` is 1;
// `[label $f | range(10) | ., (select(. == 2) | break $f)]` is [0,1,2]) (the manual's "Breaking out of control
// structures"). just-bash's break carried the outputs a pipe had made, but a comma, parentheses or an `as` binding
// dropped theirs, so `1, break $out` printed nothing.
export default {
  title: 'jq break keeps the outputs made before it through commas, parentheses and bindings',
  upstream: 'src/commands/query-engine (evaluate, Comma/Paren/VarBind): prepend the results made so far to a BreakError passing through',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'function __jqPartial(u,node,results,child){',
      replace: 'function __jqPartial(u,node,results,child){if(u instanceof Q)return u.withPrependedResults(results);',
    },
  ],
};
