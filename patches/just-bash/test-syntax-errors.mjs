// `test`/`[` report a malformed expression as bash's test.c does, through the shell's error prefix
// (`bash: line N: [: MESSAGE`, status 2): three arguments whose middle one is no binary operator
// (`[ a b c ]`: `b: binary operator expected`), an operator missing its argument (`[ 1 -lt 2 -a ]`: `argument
// expected`), a word that is no integer anywhere in a longer expression (`x: integer expression expected`), a `(`
// left open (`` `)' expected, found X ``), a leftover argument (`too many arguments`, or `` syntax error: `-z'
// unexpected `` for an operator), a `[` without its `]`. just-bash said `test: too many arguments` for all of the
// first, answered false with no word for the others, and printed `[: missing `]'` without the prefix.
export default {
  title: 'test and [ word their syntax errors as bash does',
  upstream: "src/interpreter/builtins/test.ts: three_arguments' error; a syntax error thrown from the expression parser (argument expected, integer expression expected, `)' expected, syntax error: `X' unexpected, too many arguments), with the shell's error prefix",
  file: 'dist/bundle/index.js',
  edits: [
    { find: "if(r===\"(\"&&i===\")\")return be(s!==\"\")}if(t.length===4)", replace: "if(r===\"(\"&&i===\")\")return be(s!==\"\");return D(`bash: line ${e.state.currentLine}: ${e.state.testName??\"test\"}: ${s}: binary operator expected\\n`,2)}if(t.length===4)" },
    { find: "let n=await lu(e,t,0);return n.pos<t.length?D(`test: too many arguments\n`,2):be(n.value)}", replace: "let n;try{n=await lu(e,t,0)}catch(Zs){if(Zs&&Zs.spzTestSyntax)return D(`bash: line ${e.state.currentLine}: ${e.state.testName??\"test\"}: ${Zs.spzTestSyntax}\\n`,2);throw Zs}return n.pos<t.length?D(`bash: line ${e.state.currentLine}: ${e.state.testName??\"test\"}: ${/^-./.test(t[n.pos])?\"syntax error: `\"+t[n.pos]+\"' unexpected\":\"too many arguments\"}\\n`,2):be(n.value)}" },
    { find: "async function lh(e,t,n){let r=t[n];if(r===\"(\"){let{value:i,pos:o}=await lu(e,t,n+1);return{value:i,pos:t[o]===\")\"?o+1:o}}", replace: "async function lh(e,t,n){let r=t[n];if(r===void 0)throw{spzTestSyntax:\"argument expected\"};if(r===\"(\"){let{value:i,pos:o}=await lu(e,t,n+1);if(t[o]!==\")\")throw{spzTestSyntax:t[o]===void 0?e.state.testName===\"[\"?\"`)' expected, found ]\":\"`)' expected\":\"`)' expected, found \"+t[o]};return{value:i,pos:o+1}}" },
    { find: "return!i.valid||!o.valid?{value:!1,pos:n+3}:{value:ys(s,i.value,o.value),pos:n+3}}", replace: "if(!i.valid||!o.valid)throw{spzTestSyntax:(i.valid?t[n+2]??\"\":r)+\": integer expression expected\"};return{value:ys(s,i.value,o.value),pos:n+3}}" },
    { find: "return D(\"[: missing `]'\\n\",2)", replace: "return D(\"bash: line \"+c.state.currentLine+\": [: missing `]'\\n\",2)" },
  ],
};
