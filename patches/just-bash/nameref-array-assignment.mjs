// A compound assignment through a name reference (`declare -n r=a; r=(x y)`, `local -n out=$1; out=(p q)`) assigns
// the array the reference names, as a scalar assignment through it already did; a circular reference is an error.
// Bash's manual, "Shell Parameters" (the nameref attribute). just-bash made the reference itself an array.
export default {
  title: 'name=(…) through a nameref assigns the referenced array',
  upstream: 'src/interpreter/assignments.ts (processAssignments): resolve a nameref (resolveNameref) before a compound array assignment, as for a scalar one',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let i=s.name;if(s.array){let u=await cm(e,t,i,',
      replace:
        'let i=s.name;if(s.array){if(ue(e,i)){let R=Yr(e,i);if(R===void 0)return{continueToNext:!1,xtraceOutput:r,tempAssignments:n,error:L("",`bash: ${i}: circular name reference\\n`,1)};/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(R)&&(i=R)}let u=await cm(e,t,i,',
    },
  ],
};
