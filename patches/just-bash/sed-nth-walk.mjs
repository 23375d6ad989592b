// `s/RE/R/N` counts matches as GNU sed finds them: an empty match right after the previous match is no match (the
// same walk `s///g` takes), so `echo aaa | sed 's/a*/x/2'` leaves `aaa` and `echo abc | sed 's/b*/x/3'` gives `abcx`.
// The Nth occurrence was counted over JavaScript's global matches, which include those empty ones (`aaax`, `abxc`).
const FIND = 'e.patternSpace=E.replace(e.patternSpace,(l,...f)=>{if(m++,r.global?m>=d:m===d){let b=f.slice(0,-2);return j(r.replacement,l,b)}return l});';
export default {
  title: "sed's s///N counts matches as GNU does (no empty match right after a match)",
  upstream: 'src/commands/sed/executor.ts: count the Nth occurrence with the same match walk as the g flag (an empty match adjacent to the previous match is skipped)',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [{ find: FIND, replace: 'e.patternSpace=ve(e.patternSpace,E,r.replacement,(l,b)=>(m++,(r.global?m>=d:m===d)?j(r.replacement,l,b):l));' }],
};
