// An associative array lists its keys in bash's order, not sorted: bash keeps the elements in a hash table of 1024
// buckets (FNV-1 of the key's bytes, as signed chars), walks the buckets in order, the newest key first within one,
// and quadruples the table when it holds twice as many keys as buckets. `${!m[@]}`, `${m[@]}`, `declare -p m` and
// `for k in "${!m[@]}"` all follow it (bash's hashlib.c hash_string, hash_insert, hash_grow; assoc.c).
export default {
  title: 'associative array keys come in bash\'s hash-table order',
  upstream: 'src/interpreter/helpers/array.ts getAssocArrayKeys: order the keys as bash\'s hashlib does (FNV-1 bucket of 1024, growing x4 at 2 keys per bucket; newest first in a bucket) instead of sorting them',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Et(e,t){return Array.from(Pe(e,t)?.elements.keys()??[]).sort()}',
      // Map keeps insertion order (a deleted and re-added key goes last), which is the order bash inserted them in.
      replace: 'function Et(e,t){let k=Array.from(Pe(e,t)?.elements.keys()??[]),E=new TextEncoder,H=s=>{let i=2166136261;for(let b of E.encode(s))i=(Math.imul(i,16777619)^(b>127?b-256:b))>>>0;return i},n=1024,B=new Map,c=0,add=s=>{let j=H(s)&n-1,l=B.get(j);l?l.unshift(s):B.set(j,[s])};for(let s of k){if(c>=n*2){let o=[...B.keys()].sort((a,b)=>a-b).flatMap(j=>B.get(j));n*=4,B=new Map;for(let s2 of o)add(s2)}add(s),c++}return[...B.keys()].sort((a,b)=>a-b).flatMap(j=>B.get(j))}',
    },
  ],
};
