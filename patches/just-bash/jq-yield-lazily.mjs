// jq evaluates generators lazily: `first(f)`, `limit(n; f)`, `isempty(f)` and a `label $out | … break $out` stop f
// as soon as they have what they need (jq's manual: `first(range(10;infinite))` is 10, `[limit(3; repeat(1))]` is
// [1,1,1]; src/builtin.jq defines them with label/break). just-bash computes every filter's outputs in full before
// using them, so an infinite generator there ran into the element or iteration limit (status 126) and a finite one
// ran its side effects (`input`, `debug`, `halt`) past the point jq stops. Here those four consumers pull outputs one
// at a time from a generator that streams pipes, commas, parentheses, labels, `foreach` and the builtins `range`,
// `repeat` (f's outputs on the same input, again and again, as jq defines it; just-bash fed each
// output back in), `while`, `recurse(f)` and `inputs`, and falls back to the full evaluation for every other filter (a
// user-defined function included). What a consumer took before an error is kept as the call's partial result.
const helpers = [
  // the streaming evaluation of node n on input e in context t
  'function*__jqLazy(e,n,t){switch(n.type){',
  'case"Pipe":{let s=P(n.left),c=s!==null?{...t,currentPath:[...t.currentPath??[],...s]}:t;for(let x of __jqLazy(e,n.left,t))yield*__jqLazy(x,n.right,c);return}',
  'case"Comma":yield*__jqLazy(e,n.left,t);yield*__jqLazy(e,n.right,t);return;',
  'case"Paren":yield*__jqLazy(e,n.expr,t);return;',
  'case"Label":{let c={...t,labels:new Set([...t.labels??[],n.name])};try{yield*__jqLazy(e,n.body,c)}catch(r){if(r instanceof Q&&r.label===n.name){yield*r.partialResults;return}throw r}return}',
  'case"Foreach":{let s=d(e,n.init,t)[0];for(let p of __jqLazy(e,n.expr,t)){let u;if(n.pattern){if(u=W(t,n.pattern,p),u===null)continue}else u=se(t,n.varName,p);s=d(s,n.update,u)[0];if(n.extract)yield*d(s,n.extract,u);else yield s}return}',
  'case"Call":{let g2=__jqLazyCall(e,n.name,n.args,t);if(g2){yield*g2;return}break}}',
  // any other node: its full outputs, those made before an error first
  'let o;try{o=d(e,n,t)}catch(u){if(!(u instanceof Q)&&u?.jqPartial?.node===n&&u.jqPartial.results.length){let k=u.jqPartial.results;u.jqPartial=void 0,yield*k}throw u}yield*o}',
  // builtins that generate; null when the call is no builtin one or not a generator
  'function __jqLazyCall(e,n,a,t){let key=`${n}/${a.length}`;if(t.funcs?.has(key)||!/^(range\\/[123]|repeat\\/1|while\\/2|recurse\\/1|inputs\\/0|limit\\/2|first\\/1)$/.test(key))return null;__jqCheckInput(e,n,a,t);switch(key){',
  'case"range/1":return function*(){for(let m of d(e,a[0],t))for(let N=0;N<m;N++)R(t),yield N}();',
  'case"range/2":return function*(){let c=d(e,a[0],t),h=d(e,a[1],t);for(let m of c)for(let b of h)for(let N=m;N<b;N++)R(t),yield N}();',
  'case"range/3":return function*(){let c=d(e,a[0],t),h=d(e,a[1],t),k=d(e,a[2],t);for(let y of c)for(let m of h)for(let b of k)if(b>0)for(let N=y;N<m;N+=b)R(t),yield N;else if(b<0)for(let N=y;N>m;N+=b)R(t),yield N}();',
  'case"repeat/1":return function*(){for(;;)R(t),yield*__jqLazy(e,a[0],t)}();',
  'case"while/2":return function*(){let i=e;for(;;){if(R(t),!d(i,a[0],t).some(I))return;yield i;let x=d(i,a[1],t);if(!x.length)return;i=x[0]}}();',
  'case"recurse/1":return function*y(v,k){if(R(t),k>t.limits.maxDepth)throw F(`query depth limit exceeded (${t.limits.maxDepth})`,"recursion");yield v;for(let m of d(v,a[0],t))m!=null&&(yield*y(m,k+1))}(e,0);',
  'case"inputs/0":{let q2=t.inputs;return q2?function*(){for(;q2.next<q2.values.length;)yield q2.values[q2.next++]}():null}',
  'case"limit/2":return __jqLimit(e,a,t);',
  'case"first/1":return function*(){for(let x of __jqLazy(e,a[0],t)){yield x;return}}()}return null}',
  // limit(n; f) as jq 1.6 counts: n < 0 all of f, n = 0 its first output
  'function*__jqLimit(e,a,t){for(let c of d(e,a[0],t)){if(c<0){yield*__jqLazy(e,a[1],t);continue}c===0&&(c=1);let k=0;for(let x of __jqLazy(e,a[1],t))if(yield x,++k>=c)break}}',
  // the outputs of a streaming consumer gathered, with those made before an error kept on it
  'function __jqGather(g,t){let o=[];try{for(let x of g)q(t,o,[x])}catch(u){throw u instanceof Q?u.withPrependedResults(o):(u&&typeof u=="object"&&(u.jqCallPartial=o),u)}return o}',
].join('');

export default {
  title: 'jq first, limit, isempty and label/break take a generator\'s outputs one at a time',
  upstream: 'src/commands/query-engine/evaluator: a generator evaluation (pipe, comma, label, foreach, range, repeat, while, recurse, inputs) used by first/1, limit/2, isempty/1 and label',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    { find: 'function he(e,n,t,r,s,o,p,u){', replace: `${helpers}function he(e,n,t,r,s,o,p,u){` },
    {
      find: 'case"first":if(t.length>0)try{let f=s(e,t[0],r);return f.length>0?[f[0]]:[]}catch(f){if(f instanceof u)throw f;let k=f?.jqPartial?.node===t[0]?f.jqPartial.results:[];if(k.length)return[k[0]];throw f}',
      replace: 'case"first":if(t.length>0)return __jqGather(__jqLazyCall(e,"first",t,r),r);',
    },
    {
      find: 'case"limit":return t.length<2?[]:s(e,t[0],r).flatMap(i=>{let c=i;if(c<0)return s(e,t[1],r);if(c===0)c=1;let h;try{h=s(e,t[1],r)}catch(a){if(a instanceof u)throw a;h=a?.jqPartial?.node===t[1]?a.jqPartial.results:[];if(h.length<c)throw a}return h.slice(0,c)});',
      replace: 'case"limit":return t.length<2?[]:__jqGather(__jqLimit(e,t,r),r);',
    },
    {
      find: 'case"isempty":{if(t.length<1)return[!0];try{return[s(e,t[0],r).length===0]}catch(f){if(f instanceof u)throw f;if(f?.jqPartial?.node===t[0]&&f.jqPartial.results.length)return[!1];throw f}}',
      replace: 'case"isempty":{if(t.length<1)return[!0];for(let x of __jqLazy(e,t[0],r))return[!1];return[!0]}',
    },
    {
      find: 'case"Label":try{return d(e,n.body,{...t,labels:new Set([...t.labels??[],n.name])})}catch(r){if(r instanceof Q&&r.label===n.name)return r.partialResults;throw r}',
      replace: 'case"Label":{let o=__jqGather(__jqLazy(e,n,t),t);return o}',
    },
    {
      // repeat(f) is `def repeat(f): def _repeat: f, _repeat; _repeat;` (jq 1.6 and 1.7.1 src/builtin.jq): f's outputs
      // on the same input, again and again (just-bash fed each output back in: 1, 2, 4 for `1 | repeat(. * 2)`)
      find: 'case"repeat":{if(t.length===0)return[e];let f=[],i=e,c=r.limits.maxIterations;for(let h=0;h<c;h++){f.push(i);let a=s(i,t[0],r);if(a.length===0)break;i=a[0]}if(f.length>=c)throw new u(`jq repeat: too many iterations (${c}), increase executionLimits.maxJqIterations`,"iterations");return f}',
      replace: 'case"repeat":return t.length===0?[e]:__jqGather(__jqLazyCall(e,"repeat",t,r),r);',
    },
    {
      // a streaming consumer's partial outputs become the call's
      find: 'case"Call":return Je(e,n.name,n.args,t);',
      replace: 'case"Call":try{return Je(e,n.name,n.args,t)}catch(u){if(u&&u.jqCallPartial){let k=u.jqCallPartial;delete u.jqCallPartial,u.jqPartial={node:n,results:k}}throw u}',
    },
  ],
};
