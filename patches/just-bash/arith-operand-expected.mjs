// Where bash's arithmetic wants an operand and finds an operator (`1 + * 2`, `* 2`, `1 */ 2`, `()`), the expression
// does not parse: `syntax error: operand expected (error token is "* 2")`, the rest of the expression from there, and
// the command fails (bash's expr.c readtok/expassign). just-bash read the missing operand as 0 and went on.
export default {
  title: 'arithmetic: an operator where an operand belongs is "operand expected"',
  upstream: 'src/parser/arithmetic-parser.ts parsePrimary (the fallback for a character that starts no operand: a syntax error naming the rest of the expression, unless at its end)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'u=t.slice(s,c).trim()||"#";return{expr:{type:"ArithSyntaxError",errorToken:u,message:`${u}: syntax error: invalid arithmetic operator (error token is "${u}")`},pos:t.length}}return{expr:{type:"ArithNumber",value:0},pos:s}}',
      replace: 'u=t.slice(s,c).trim()||"#";return{expr:{type:"ArithSyntaxError",errorToken:u,message:`${u}: syntax error: invalid arithmetic operator (error token is "${u}")`},pos:t.length}}if(s<t.length&&/[*\\/%<>=&|^,?:)]/.test(t[s]))return{...je(t.slice(s),t.length)};return{expr:{type:"ArithNumber",value:0},pos:s}}',
    },
  ],
};
