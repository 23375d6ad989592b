// `${v~}` and `${v~~}` toggle the case of the first character and of every character (`Hello World` gives
// `hELLO wORLD`), with an optional pattern as `^`/`,` take, on each element of an array as they do: bash's
// parameter expansion (subst.c, the `~` case-modification operators, documented in bash's NEWS since 4.0).
// just-bash parsed `^` and `,` only, so `${v~~}` was a bad substitution.
export default {
  title: '${v~} and ${v~~} toggle the case of the first or every character',
  upstream: 'src/parser/expansion-parser.ts parseParameterOperation: accept "~"/"~~" as a CaseModification with direction "toggle"; parameter-ops.ts applyCaseModification and the AST serializer handle "toggle"',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(o==="^"||o===","){let l=a===o,c=o==="^"?"upper":"lower";',
      replace: 'if(o==="^"||o===","||o==="~"){let l=a===o,c=o==="^"?"upper":o===","?"lower":"toggle";',
    },
    {
      find: 'l=n.direction==="upper"?f=>f.toUpperCase():f=>f.toLowerCase(),c=""',
      replace: 'l=n.direction==="toggle"?f=>{let U=f.toUpperCase();return U===f?f.toLowerCase():U}:n.direction==="upper"?f=>f.toUpperCase():f=>f.toLowerCase(),c=""',
    },
    {
      find: 'return n.direction==="upper"?n.all?t.toUpperCase():t.charAt(0).toUpperCase()+t.slice(1):n.all?t.toLowerCase():t.charAt(0).toLowerCase()+t.slice(1)}',
      replace: 'if(n.direction==="toggle"){let T=f=>{let U=f.toUpperCase();return U===f?f.toLowerCase():U},A=[...t];return n.all?A.map(T).join(""):A.length?T(A[0])+A.slice(1).join(""):""}return n.direction==="upper"?n.all?t.toUpperCase():t.charAt(0).toUpperCase()+t.slice(1):n.all?t.toLowerCase():t.charAt(0).toLowerCase()+t.slice(1)}',
    },
    {
      find: ':{let n=t.direction==="upper"?"^":",",',
      replace: ':{let n=t.direction==="upper"?"^":t.direction==="toggle"?"~":",",',
    },
  ],
};
