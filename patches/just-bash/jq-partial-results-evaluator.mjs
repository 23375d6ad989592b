// jq streams a filter's outputs: what `.[] | .a + 1` produced for the elements before the one that fails is printed
// before the error (src/execute.c runs the filter as a generator and main.c prints each output as it comes), and
// `try (1, error("x"), 3)` yields 1 before the error stops it. just-bash evaluates a filter to an array of outputs,
// so an error lost the outputs before it. Pipe, comma, parentheses and `as` bindings now hand the outputs made so far to the error they let
// through (`jqPartial`, with the node that made them, so a collecting construct such as `[...]` that does not pass
// its own outputs on drops them), a pipe runs the outputs its left side made before failing through its right side
// first, and `try` yields them; the jq command prints the partial outputs of the whole filter before the message.
export default {
  title: 'jq keeps the outputs a pipe or comma made before an error (evaluator side)',
  upstream: 'src/commands/query-engine (evaluate, Pipe/Comma/Try): carry the results gathered so far on the error thrown through a pipe or comma, run them through the rest of the pipe, and yield them from try',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'function q(e,n,t){D(e,n.length,t.length);',
      replace:
        // The error `u` leaving `node`, which made `results` first; `child`, when given, is the node `u` left, whose
        // own partial outputs come after them.
        'function __jqPartial(u,node,results,child){if(u&&typeof u=="object"&&!(u instanceof Q)){let k=child!==void 0&&u.jqPartial?.node===child?u.jqPartial.results:[];u.jqPartial={node,results:[...results,...k]}}return u}' +
        'function q(e,n,t){D(e,n.length,t.length);',
    },
    {
      find: 'case"Pipe":{let r=d(e,n.left,t),s=P(n.left),o=[];',
      replace: 'case"Pipe":{let JP,r;try{r=d(e,n.left,t)}catch(u){if(u instanceof Q||!u||u.jqPartial?.node!==n.left)throw u;r=u.jqPartial.results,JP=u}let s=P(n.left),o=[];',
    },
    {
      find: 'catch(u){throw u instanceof Q?u.withPrependedResults(o):u}return o}case"Comma":{let r=d(e,n.left,t),s=d(e,n.right,t);',
      replace:
        'catch(u){throw u instanceof Q?u.withPrependedResults(o):__jqPartial(u,n,o,n.right)}if(JP)throw __jqPartial(JP,n,o);return o}' +
        'case"Comma":{let r,s;try{r=d(e,n.left,t)}catch(u){throw __jqPartial(u,n,[],n.left)}try{s=d(e,n.right,t)}catch(u){throw __jqPartial(u,n,r,n.right)}',
    },
    {
      find: 'case"Try":try{return d(e,n.body,t)}catch(r){if(r instanceof g)throw r;if(n.catch){let s=r instanceof ie?r.value:r instanceof Error?r.message:String(r);return d(s,n.catch,t)}return[]}',
      replace:
        'case"Try":try{return d(e,n.body,t)}catch(r){if(r instanceof g)throw r;let JK=r?.jqPartial?.node===n.body?r.jqPartial.results:[];if(n.catch){let s=r instanceof ie?r.value:r instanceof Error?r.message:String(r);return[...JK,...d(s,n.catch,t)]}return JK}',
    },
    {
      // `E as $x | body` streams body's outputs for each value of E.
      find: 'return o===null?[]:d(e,n.body,o)})}case"VarRef":',
      replace: 'return o===null?[]:d(e,n.body,o)},n,n.body)}case"VarRef":',
    },
    {
      find: 'function M(e,n,t){let r=[];for(let s of n){R(e);let o=t(s);q(e,r,o)}return r}',
      replace: 'function M(e,n,t,JN,JB){let r=[];for(let s of n){R(e);let o;try{o=t(s)}catch(u){throw JN?__jqPartial(u,JN,r,JB):u}q(e,r,o)}return r}',
    },
    {
      // Parentheses pass their body's partial outputs on: `.[] | (., .+1)`.
      find: 'case"Paren":return d(e,n.expr,t);',
      replace: 'case"Paren":try{return d(e,n.expr,t)}catch(u){throw __jqPartial(u,n,[],n.expr)}',
    },
  ],
};
