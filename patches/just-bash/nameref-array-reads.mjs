// A name reference to an array stands for the array in every array operation: `"${r[@]}"`, `${#r[@]}`, `${!r[@]}`,
// `${r[@]:1}`, `(( r[1] + 1 ))` and `(( r[0] = 9 ))` read and write the array r refers to (bash(1) "Shell
// Parameters": "all references, assignments, and attribute modifications to name ... are actually performed on the
// variable specified by the nameref"), the usual `local -n arr=$1` out-parameter of a function. just-bash resolved
// the reference only for `${r[i]}` and `r[i]=v`; elsewhere it saw no array and expanded `"${r[@]}"` to the
// reference's own value (the target's name) and `${#r[@]}` to 1. A nameref can never hold an array itself, so the
// array store (get, create, list, test) resolves the name first; `declare -p r` still prints the reference itself.
export default {
  title: 'array reads and writes through a nameref reach the referenced array',
  upstream: 'src/interpreter/helpers/array.ts (getArray, getOrCreateArray, hasArray, getArrayEntries): resolve a nameref (resolveNameref) to a plain target name first',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Pe(e,t){return e.state.arrays?.get(t)}function rr(e,t,n="indexed"){e.state.arrays??=new Map;',
      replace: 'function __jbArrName(e,t){if(!e.state.namerefs?.size||!ue(e,t))return t;let r=Fe(e,t);return r&&/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(r)?r:t}function Pe(e,t){return e.state.arrays?.get(__jbArrName(e,t))}function rr(e,t,n="indexed"){t=__jbArrName(e,t);e.state.arrays??=new Map;',
    },
    {
      find: 'function Ne(e,t){return e.state.arrays?.has(t)??!1}',
      replace: 'function Ne(e,t){return e.state.arrays?.has(__jbArrName(e,t))??!1}',
    },
    {
      find: 'function K(e,t){return t==="FUNCNAME"',
      replace: 'function K(e,t){t=__jbArrName(e,t);return t==="FUNCNAME"',
    },
    {
      find: 'let A=e.state.associativeArrays?.has(i),y=Pe(e,i),a=!A&&y!==void 0',
      replace: 'let A=e.state.associativeArrays?.has(i),y=ue(e,i)?void 0:Pe(e,i),a=!A&&y!==void 0',
    },
  ],
};
