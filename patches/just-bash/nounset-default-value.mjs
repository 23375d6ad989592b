// Under `set -u`, "${v:-word}", "${v-word}", "${v:+word}" and "${v:=word}" never fail on an unset v (an unset
// positional parameter, a declared-but-unset local, a missing array element): that is what they are for. Bash's
// manual, "The Set Builtin" (-u) and "Shell Parameter Expansion"; just-bash's fast path for such a quoted word
// read the variable with the nounset check on, so `set -u; name="${1:-world}"` ended the script.
export default {
  title: 'set -u: "${1:-default}" (quoted, whole word) does not fail',
  upstream: 'src/interpreter/expansion/word-glob-expansion.ts (quoted default-value fast path): read the parameter with nounset checking off',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let l=r.parameter,c=await St(e,l),u=await ie(e,l),f=u===""',
      replace: 'let l=r.parameter,c=await St(e,l),u=await ie(e,l,!1),f=u===""',
    },
  ],
};
