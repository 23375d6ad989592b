// `s/re/new/N` substitutes only when the line has an Nth match (GNU sed manual, "The s Command": "Only replace the
// number'th match of the regexp"). just-bash counted any match as a substitution, so on a line with fewer than N
// matches the `p` and `w FILE` flags still printed and wrote the unchanged line, and `t` still branched.
export default {
  title: 'sed s///N with fewer than N matches makes no substitution (no p, w or t)',
  upstream: 'src/commands/sed/executor.ts (the substitute command): with nthOccurrence, set substitutionMade and run the p/w flags only when the Nth match was replaced',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'if(p.lastIndex=0,k){if(e.substitutionMade=!0,r.nthOccurrence&&r.nthOccurrence>0){',
      replace: 'if(p.lastIndex=0,k){let sedMadeBefore=e.substitutionMade;if(e.substitutionMade=!0,r.nthOccurrence&&r.nthOccurrence>0){',
    },
    {
      find: 'return j(r.replacement,l,b)}return l})}else if(r.global)',
      replace: 'return j(r.replacement,l,b)}return l});if(m<d){e.substitutionMade=sedMadeBefore;break}}else if(r.global)',
    },
  ],
};
