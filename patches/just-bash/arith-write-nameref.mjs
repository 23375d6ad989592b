// An arithmetic assignment to a nameref assigns the variable it refers to (bash(1) "Shell Parameters": "all
// references, assignments, and attribute modifications to name … are actually performed on the variable
// specified by the nameref"): `inc() { local -n n=$1; (( n++ )); }` increments the caller's variable, and
// `(( r += 10 ))` adds to r's target. just-bash read through the nameref but wrote the number into the nameref
// itself, losing the reference.
export default {
  title: 'arithmetic assignments (`=`, `+=`, `++`, `--`) through a nameref assign its target',
  upstream: 'src/interpreter/arithmetic.ts (ArithAssignment, ArithUnary ++/--): resolve a nameref variable to its target name before reading and writing it',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"ArithAssignment":{let i=t.variable,o=i,a;',
      replace: 'case"ArithAssignment":{let i=t.variable;ue(e,i)&&!t.subscript&&t.stringKey===void 0&&/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(Fe(e,i)??"")&&(i=Fe(e,i));let o=i,a;',
    },
    {
      find: 'if(t.operand.type==="ArithVariable"){let o=t.operand.name,a=',
      replace: 'if(t.operand.type==="ArithVariable"){let o=t.operand.name;ue(e,o)&&/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(Fe(e,o)??"")&&(o=Fe(e,o));let a=',
    },
  ],
};
