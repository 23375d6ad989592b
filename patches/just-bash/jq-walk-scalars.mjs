// jq's walk(f) applies f bottom-up to every value, scalars included, and rebuilds each array and object from the
// results: `walk(if type == "number" then . + 1 else . end)` on `[1,[2]]` gives `[2,[3]]` (jq's builtin.jq:
// `def walk(f): def w: if type == "object" then map_values(w) elif type == "array" then map(w) else . end | f; w;`).
// just-bash kept the transformed value only for arrays and objects, so numbers and strings inside came back as they were.
export default {
  title: 'jq walk rebuilds containers from the results of every child, scalars included',
  upstream: 'src/commands/query-engine/builtins (walk): recurse into arrays and objects, rebuild them from the children\'s results, then apply f (first output) to the node',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'case"walk":{if(t.length===0)return[e];',
      replace:
        'case"walk":{if(t.length===0)return[e];{let L=V(r),W=(v,d)=>{if(d>L.maxDepth)throw new g(`query depth limit exceeded (${L.maxDepth})`,"recursion");let x=v;if(Array.isArray(v))x=v.map(y=>W(y,d+1));else if(v!==null&&typeof v=="object"){x=Object.create(null);let N=S(v);for(let O of Object.keys(N??{})){if(!k(O))continue;E(x,O,W(N[O],d+1))}}return s(x,t[0],r)[0]};return[W(e,0)]}',
    },
  ],
};
