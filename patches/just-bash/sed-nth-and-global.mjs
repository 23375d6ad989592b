// `s/re/new/Ng` replaces the Nth match and every one after it (GNU sed manual, "The s Command": "when the g and
// number modifiers are mixed, ignore matches before the number-th, and then match and replace all matches from the
// number-th on"). just-bash took the `g` alone and replaced every match: `sed 's/o/0/2g'` changed the first `o` too.
export default {
  title: 'sed s///Ng replaces the Nth match and all after it',
  upstream: 'src/commands/sed/executor.ts (the substitute command): with both nthOccurrence and global, replace matches whose count is >= nthOccurrence',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'if(e.substitutionMade=!0,r.nthOccurrence&&r.nthOccurrence>0&&!r.global){let m=0,d=r.nthOccurrence,E=A(h,`g${r.ignoreCase?"i":""}`);e.patternSpace=E.replace(e.patternSpace,(l,...f)=>{if(m++,m===d){',
      replace: 'if(e.substitutionMade=!0,r.nthOccurrence&&r.nthOccurrence>0){let m=0,d=r.nthOccurrence,E=A(h,`g${r.ignoreCase?"i":""}`);e.patternSpace=E.replace(e.patternSpace,(l,...f)=>{if(m++,r.global?m>=d:m===d){',
    },
  ],
};
