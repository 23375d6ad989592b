// An assignment statement whose subscript is out of range (`a[-5]=x` with fewer elements) is an expansion error
// in bash: `bash: line N: a[-5]: bad array subscript`, and like an arithmetic error it abandons the whole command
// line (the rest of the `;` list, the function or loop it is in) with status 1; the shell goes on with the next
// line. Bash's manual, "Arrays" ("a negative index ... an error"), arrayfunc.c (assign_array_element via
// expand_word_error's DISCARD). just-bash failed only that command with status 1 and went on. (A `declare`,
// whose argument it is, only fails.)
export default {
  title: 'a bad subscript in an assignment statement abandons its command line',
  upstream: 'src/interpreter/assignment.ts processAssignment: for a command of assignments only, an index-resolution error throws an ArithmeticError-like expansion error (line abandoned, status 1) instead of returning a failed result',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let f=await na(e,a,r);if(f.error)return{continueToNext:!1,xtraceOutput:"",error:f.error};',
      replace: 'let f=await na(e,a,r);if(f.error){if(!t.name)throw new ce("bad array subscript","",f.error.stderr);return{continueToNext:!1,xtraceOutput:"",error:f.error}}',
    },
  ],
};
