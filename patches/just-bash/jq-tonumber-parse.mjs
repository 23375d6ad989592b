// jq's `tonumber` on a string parses it as JSON text (jq 1.6 and 1.7 src/builtin.c f_tonumber: jv_parse): blanks
// around the number are allowed, a literal that is no number fails with the parser's message and the text
// (`Invalid numeric literal at EOF at line 1, column 5 (while parsing '12abc')`, `Expected JSON value (while parsing
// '')`), a JSON value of another kind is `string ("true") cannot be parsed as a number`, and `nan`, `infinity` are
// numbers (jvp_strtod). just-bash used JavaScript's Number(): "" and "0x10" were numbers (0, 16) and the message
// was its own (`"12abc" cannot be parsed as a number`).
const helper = String.raw`function __jqToNumber(s){let W=/[ \t\n\r]/,at=(p,eof)=>{let l=s.slice(0,p).split("\n");return(eof?"at EOF at line ":"at line ")+l.length+", column "+l[l.length-1].length},fail=m=>{throw new Error(m+" (while parsing '"+s+"')")},toks=[],i=0;for(;i<s.length;){if(W.test(s[i])){i++;continue}let j=i;if(/["[{]/.test(s[i])){toks.push({w:s.slice(i),e:s.length});break}for(;j<s.length&&!W.test(s[j])&&!/[\[\]{}",:]/.test(s[j]);)j++;if(j===i)j++;toks.push({w:s.slice(i,j),e:j}),i=j}if(!toks.length)fail("Expected JSON value");let v=[];for(let{w,e}of toks){let n=null;if(/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(w))n=Number(w);else if(/^[+-]?nan$/i.test(w))n=NaN;else if(/^[+-]?inf(inity)?$/i.test(w))n=w.startsWith("-")?-Infinity:Infinity;else if(/^(true|false|null)$/.test(w)||/^["[{]/.test(w)){let x;try{x=JSON.parse(w)}catch{x=void 0}if(x!==void 0){v.push(x);continue}fail("Unfinished JSON term "+at(s.length,!0))}else fail((/^[tfn]/.test(w)?"Invalid literal ":"Invalid numeric literal ")+(e>=s.length?at(s.length,!0):at(e+1)));v.push(n)}if(v.length>1)fail("Unexpected extra JSON values");if(typeof v[0]!="number")throw new Error(__jqOperandText(s)+" cannot be parsed as a number");return v[0]}`;

export default {
  title: 'jq tonumber parses its string as jq does, with jq\'s messages',
  upstream: 'src/commands/query-engine builtins tonumber: parse the string as one JSON number, jv_parse\'s messages',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'if(typeof e=="string"){let o=Number(e);if(Number.isNaN(o))throw new Error(`${JSON.stringify(e)} cannot be parsed as a number`);return[o]}',
      replace: 'if(typeof e=="string")return[__jqToNumber(e)];',
    },
    { find: 'function he(e,n,t,r,s,o,p,u){', replace: `${helper}function he(e,n,t,r,s,o,p,u){` },
  ],
};
