// `local -a name` with no value makes a local array that is declared but unset, as `declare -a name` does (bash's
// manual, "Shell Functions" and "Bash Builtins": such a variable has attributes and no value): `declare -p name`
// prints `declare -a name`, not `declare -a name=()`, until an element is assigned. just-bash started it as a set
// empty array, and left a global scalar of that name in view.
export default {
  title: 'local -a name (no value) is declared but unset',
  upstream: 'src/interpreter/builtins/local.ts: a `-a` local without a value gets an array marked unset, as declare -a does',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'if(c&&h===void 0)Ee(e,p),zt(e,p,"indexed");', replace: 'if(c&&h===void 0)Ee(e,p),zt(e,p,"indexed").spzUnset=!0,y||e.state.env.delete(p);' },
  ],
};
