// `test`/`[` with two arguments (POSIX "test": the first is `!` or a unary primary) fails with status 2 and
// `[: X: unary operator expected` when the first is neither, whatever it is: `[ 1 -lt ]`, `[ a b ]`, `[ "(" a ]`
// (bash's test.c, two_arguments). just-bash returned a silent 1 for any first word but a binary operator, and worded
// `(` as a missing `)`.
export default {
  title: 'test with two arguments whose first is no unary operator: "unary operator expected", status 2',
  upstream: 'src/interpreter/builtins/test.ts (two arguments): anything but "!" or a unary primary first is "X: unary operator expected", status 2',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(t.length===2){let r=t[0],s=t[1];return r==="("?D(`test: \'(\' without matching \')\'\n`,2):fs(r)?',
      replace: 'if(t.length===2){let r=t[0],s=t[1];return fs(r)?',
    },
    {
      find: 'r==="-o"?be(Ji(e,s)):r==="="||r==="=="||r==="!="||r==="<"||r===">"||r==="-eq"||r==="-ne"||r==="-lt"||r==="-le"||r==="-gt"||r==="-ge"||r==="-nt"||r==="-ot"||r==="-ef"?D(`test: ${r}: unary operator expected\n`,2):L("","",1)}if(t.length===3){',
      replace: 'r==="-o"?be(Ji(e,s)):D(`bash: line ${e.state.currentLine}: ${e.state.testName??"test"}: ${r}: unary operator expected\n`,2)}if(t.length===3){',
    },
  ],
};
