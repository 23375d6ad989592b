// A word with an unquoted pattern character that matches no file (no nullglob, no failglob) is left unchanged
// (bash manual, Filename Expansion): it was already split, and its quoted parts stay as they were. just-bash took
// the unmatched word, removed every backslash from it and split it on IFS again, so `rm -rf "$d"/*.nomatch` with
// d='dir with space' removed `dir`, `echo ["$v"]` lost the spaces of $v, and `v='a\*b'; echo "$v"?` printed `a*b?`.
// Words whose unquoted expansions need splitting take another path (split first, then each field globbed).
export default {
  title: 'pathname expansion: a word that matches nothing is left as it was, not split again',
  upstream: 'src/interpreter/expansion/word-glob-expansion.ts (the glob branch after a pattern matched nothing: return the expanded word itself, without unescaping and without a second word splitting)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The parts one by one (what expandWordAsync joins), so the unmatched word can be given back with only the
      // pattern parts' own escapes removed (`[\*]` reads `[*]`, as quote removal gives), the rest as expanded.
      find: 'let b=await n.expandWordAsync(e,t);return Fp(e,t,r,b,s,n.expandWordForGlobbing)}',
      replace:
        'let __v=[];for(let __p of r)__v.push(await n.expandPart(e,__p));let b=__v.join("");Kt(b,e.limits.maxStringLength,"word expansion");' +
        'let __k=__v.map((v,k)=>r[k].type==="Glob"?Bi(v):v).join("");return Fp(e,t,r,b,s,n.expandWordForGlobbing,__k)}',
    },
    {
      find: 'async function Fp(e,t,n,r,s,i){',
      replace: 'async function Fp(e,t,n,r,s,i,__k){',
    },
    {
      find: 'let l=Bi(r);if(!Oe(e.state.env)){let c=ke(e.state.env);return{values:de(l,c,e.limits.maxArrayElements),quoted:!1}}return{values:[l],quoted:!1}}if(!s&&!e.state.options.noglob',
      replace: 'return{values:[__k??Bi(r)],quoted:!1}}if(!s&&!e.state.options.noglob',
    },
  ],
};
