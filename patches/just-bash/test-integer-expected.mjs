// `[ 1 -eq x ]` (and `test`) with an operand that is not an integer (an empty one included) prints
// `bash: line N: [: x: integer expression expected` and returns 2. Bash's manual, "Bash Conditional Expressions"
// (arg1 OP arg2 "may be positive or negative integers"); just-bash returned 2 silently and took "" for 0.
export default {
  title: '[ A -eq B ] with a non-integer operand says "integer expression expected"',
  upstream: 'src/interpreter/helpers/numeric-compare.ts parseNumeric: "" is not an integer; src/interpreter/builtins test (three-argument form): report the first non-integer operand as "NAME: ARG: integer expression expected" with status 2, NAME being "[" or "test"',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Ss(e){if(e=e.trim(),e==="")return{value:0,valid:!0};',
      replace: 'function Ss(e){if(e=e.trim(),e==="")return{value:0,valid:!1};',
    },
    {
      find: 'f=n.slice(0,-1)}return mr(c,f)}',
      replace: 'f=n.slice(0,-1)}return c.state.testName=t,mr(c,f)}',
    },
    {
      find: 'if(ms(s)){let o=Ss(r),a=Ss(i);return!o.valid||!a.valid?L("","",2):',
      replace: 'if(ms(s)){let o=Ss(r),a=Ss(i);return!o.valid||!a.valid?D(`bash: line ${e.state.currentLine}: ${e.state.testName??"test"}: ${o.valid?i:r}: integer expression expected\\n`,2):',
    },
  ],
};
