// jq's del(f) is delpaths([path(f)]) (jq's builtin.jq), and delpaths deletes the paths sorted, last first, so an
// earlier deletion never shifts a later one: `del(.[] | select(. == 2))` on [1,2,3] is [1,3], `del(.[1,2])` on
// [1,2,3] is [1], `del(.. | nulls)` drops every null. just-bash's del rewrote only plain paths (and left the input
// unchanged for a pipe), its delpaths sorted by length only, and path(f) missed iterations under a base
// (`.items[]`, `.[].a`), a pipe whose left side is not a plain path, slices, `?` and first(f).
export default {
  title: 'jq del and delpaths delete every path f yields, in jq\'s order',
  upstream: 'src/commands/query-engine (path collection, del, delpaths): collect paths through pipes, bases, slices, ? and first(f); del(f) = delpaths([path(f)]); delete the sorted paths last first',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'function re(e,n){',
      replace:
        'function jqPathCmp(x,y){for(let k=0;k<Math.min(x.length,y.length);k++){let a=x[k],b=y[k];if(a===b)continue;if(typeof a!==typeof b)return typeof a=="number"?-1:1;return a<b?-1:1}return x.length-y.length}function re(e,n){',
    },
    { find: 'h.sort((y,m)=>m.length-y.length)', replace: 'h.sort(jqPathCmp).reverse()' },
    { find: 'case"del":return t.length===0?[e]:[f(e,t[0],r)];', replace: 'case"del":{if(t.length===0)return[e];let c=[];i(e,t[0],r,[],c);let a=e;for(let l of c.sort(jqPathCmp).reverse())a=u(a,l);return[a]}' },
    {
      find: 'let p=P(n);if(p!==null){o([...r,...p]);return}',
      replace:
        'let p=P(n);if(p!==null){o([...r,...p]);return}' +
        'if(n.base&&(n.type==="Field"||n.type==="Index"||n.type==="Iterate"||n.type==="Slice")){let lp=[],{base:_b,...nb}=n;ne(e,n.base,t,[],lp);for(let q of lp)ne(rt(e,q)??null,nb,t,[...r,...q],s);return}' +
        'if(n.type==="Index"){for(let k of d(e,n.index,t))(typeof k=="number"||typeof k=="string")&&o([...r,k]);return}' +
        'if(n.type==="Slice"){if(Array.isArray(e)){let L=e.length,at=(x,dflt)=>{let v=x?d(e,x,t)[0]:dflt;v=v==null?dflt:Math.floor(v);return v<0?Math.max(0,L+v):Math.min(L,v)},a=at(n.start,0),b=at(n.end,L);for(let k=a;k<b;k++)o([...r,k])}return}' +
        'if(n.type==="Optional"){let lp=[];try{ne(e,n.expr,t,[],lp)}catch{}for(let q of lp)o([...r,...q]);return}' +
        'if(n.type==="Call"&&n.name==="first"&&n.args.length===1){let lp=[];ne(e,n.args[0],t,[],lp);lp.length&&o([...r,...lp[0]]);return}',
    },
    {
      find: 'if(n.type==="Pipe"){let f=P(n.left);if(f!==null){let i=d(e,n.left,t);for(let c of i)ne(c,n.right,t,[...r,...f],s);return}}',
      replace: 'if(n.type==="Pipe"){let f=P(n.left);if(f!==null){let i=d(e,n.left,t);for(let c of i)ne(c,n.right,t,[...r,...f],s);return}let lp=[];ne(e,n.left,t,[],lp);for(let q of lp)ne(rt(e,q)??null,n.right,t,[...r,...q],s);return}',
    },
  ],
};
