// An assignment to an array element whose subscript is empty (`m[]=1`, or `m[$k]=1` with `$k` empty for an
// associative array) is bash's `bad array subscript`, an error that abandons the rest of the line it is on (the
// rest of a function or loop it is in too) with status 1, as an expansion error does (bash's arrayfunc.c
// assign_array_element, then jump_to_top_level). just-bash failed that one command and ran the rest of the line, and
// for an associative array stored the value under the empty key.
export default {
  title: 'an array assignment with an empty subscript is "bad array subscript" and abandons the line',
  upstream: 'src/interpreter/assignments.ts (NAME[]=: the error also sets the discard flag; an associative subscript that expands to the empty string is the same error)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(i.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\\[\\]$/))return{continueToNext:!1,',
      replace: 'if(i.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\\[\\]$/))return e.state.spzDiscard=!0,{continueToNext:!1,',
    },
    {
      find: 'let l=e.state.associativeArrays?.has(a),c;if(l)c=await rf(e,r);else{',
      replace: 'let l=e.state.associativeArrays?.has(a),c;if(l){if(c=await rf(e,r),c==="")return e.state.spzDiscard=!0,{continueToNext:!1,xtraceOutput:"",error:L("",`bash: ${n}[${r}]: bad array subscript\\n`,1)}}else{',
    },
  ],
};
