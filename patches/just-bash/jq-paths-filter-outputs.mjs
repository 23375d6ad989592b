// jq's paths(f) is `paths | select(. as $p | $dot | getpath($p) | f)`: a path comes once for each true output of f,
// so `paths(..)` repeats a path once per value under it that is true (just-bash gave each path at most once).
export default {
  title: "jq paths(f) gives a path once per true output of f",
  upstream: "src/commands/jq/ (paths/1): one path for each truthy output of f, as select does",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "return s(a,t[0],r).some(o)}):c}case\"leaf_paths\"", replace: "return s(a,t[0],r).some(o)}).flatMap(h=>{let a=e;for(let y of h)a=Array.isArray(a)?a[y]:S(a)[y];return s(a,t[0],r).filter(o).map(()=>h)}):c}case\"leaf_paths\"" },
  ],
};
