// jq's `tostream` ends each non-empty array or object with a one-element event naming the path of its last child
// (`[[2]]` after `[3,1,"x"]`'s leaves, `[["a",0]]` then `[["a"]]` after `{"b":1,"a":[2]}`'s), and a scalar or an
// empty container is a single `[path, value]` event (src/builtin.jq, tostream; the manual's "Streaming" section).
// just-bash closed every value with `[[]]`, so `fromstream(tostream)` and `truncate_stream` consumers saw the
// wrong closing events.
export default {
  title: "jq tostream closes each container with its last child's path, as jq does",
  upstream: 'src/commands/query-engine (builtins, tostream): emit [path+[lastKey]] after a non-empty container\'s leaves, nothing extra after a scalar',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find:
        "case\"tostream\":{let o=[],p=r.limits.maxDepth??Ae,u=[{value:e,path:[]}],f=new WeakSet,i=0;for(;u.length>0;){let c=u.pop();if(!c)break;if(++i>r.limits.maxIterations)throw new g(`query iteration limit exceeded (${r.limits.maxIterations})`,\"iterations\");if(c.path.length>p)throw new g(`query depth limit exceeded (${p})`,\"recursion\");let h=c.value;if(h===null||typeof h!=\"object\")ee(r,o.length),o.push([c.path,h]);else if(Array.isArray(h)){if(f.has(h))throw new g(\"cyclic value cannot be converted to a stream\",\"recursion\");if(f.add(h),h.length===0)ee(r,o.length),o.push([c.path,[]]);else{if(u.length>T(r)-h.length)throw new g(`query traversal queue limit exceeded (${T(r)})`,\"array_elements\");for(let a=h.length-1;a>=0;a--)u.push({value:h[a],path:[...c.path,a]})}}else{if(f.has(h))throw new g(\"cyclic value cannot be converted to a stream\",\"recursion\");f.add(h);let a=Object.keys(h);if(a.length===0)ee(r,o.length),o.push([c.path,Object.create(null)]);else{if(u.length>T(r)-a.length)throw new g(`query traversal queue limit exceeded (${T(r)})`,\"array_elements\");for(let l=a.length-1;l>=0;l--){let y=a[l];u.push({value:h[y],path:[...c.path,y]})}}}}return ee(r,o.length),o.push([[]]),o}",
      replace:
        'case"tostream":{let o=[],p=r.limits.maxDepth??Ae,w=(v,path)=>{if(path.length>p)throw new g(`query depth limit exceeded (${p})`,"recursion");' +
        'let k=Array.isArray(v)?v.map((x,i)=>i):v!==null&&typeof v=="object"?Object.keys(v):[];if(k.length===0){ee(r,o.length),o.push([path,v]);return}' +
        'for(let x of k)w(v[x],[...path,x]);ee(r,o.length),o.push([[...path,k[k.length-1]]])};w(e,[]);return o}',
    },
  ],
};
