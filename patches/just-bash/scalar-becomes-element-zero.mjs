// A scalar that is given an element becomes an array whose element 0 is the scalar's value (bash's manual,
// "Arrays": "Referencing an array variable without a subscript is equivalent to referencing with a subscript of
// 0"; arrayfunc.c convert_var_to_array keeps the value as element 0): `a=1; a[1]=2` gives `([0]="1" [1]="2")`,
// as do `declare -a a` and `read -a` before they assign. just-bash created an empty array beside the scalar, so
// `declare -p` and `"${a[@]}"` lost the value. Whole-array assignments clear the new array first, as before.
export default {
  title: 'a scalar given an element keeps its value as element 0',
  upstream: 'src/interpreter/helpers/array-state.ts getOrCreateArray: when the array does not exist and the name holds a scalar, start the array with element 0 set to the scalar',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let r=e.state.arrays.get(t);return r||(r={kind:n,elements:new Map},e.state.arrays.set(t,r)),r}',
      replace: 'let r=e.state.arrays.get(t);if(!r){r={kind:n,elements:new Map},e.state.arrays.set(t,r);let v=e.state.env.get(t);v!==void 0&&r.elements.set("0",v)}return r}',
    },
    {
      // `declare -a name` / `declare -A name` on a scalar: the scalar becomes element (key) 0.
      find: 'Ne(e,O)||(zt(e,O,"associative").spzUnset=!0)}let U=Ne(e,O)',
      replace: 'Ne(e,O)||(zt(e,O,"associative").spzUnset=!e.state.env.has(O))}let U=Ne(e,O);r&&!s&&!U&&e.state.env.has(O)&&(zt(e,O,"indexed"),U=!0)',
    },
  ],
};
