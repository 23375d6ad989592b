// Assigning a readonly variable in arithmetic (`(( r = 2 ))`, `$(( r += 1 ))`) is an error: `bash: line N: r:
// readonly variable`, the variable unchanged, status 1 (and, in an expansion, the rest of the line dropped, as for
// any arithmetic expansion error). Bash's manual, "Bourne Shell Builtins" (readonly); just-bash assigned it.
export default {
  title: 'arithmetic assignment to a readonly variable fails',
  upstream: 'src/interpreter/arithmetic.ts ArithAssignment: throw an ArithmeticError "NAME: readonly variable" (reported without the expression) when the variable is readonly',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"ArithAssignment":{let i=t.variable,o=i,a;',
      replace: 'case"ArithAssignment":{let i=t.variable,o=i,a;if(Be(e,i)){let _r=new ce(`${i}: readonly variable`);throw _r._plain=!0,_r}',
    },
  ],
};
