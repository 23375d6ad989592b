// `((` and `let` rebuild their expression from the lexer's tokens, joined by a space unless the pair was one of a
// few known operators. The lexer cuts `x>=1` into `x`, `>`, `=1` (a redirection operator, then a word), so the
// join gave `x > =1` and every compound operator written without a space after it (`x>=1`, `i<=3`, `n>>=2`,
// `n<<=2`, `a&=3`, `a|=8`) failed with "operand expected". bash evaluates the text as written: tokens that touch
// in the source are joined without a space.
export default {
  title: 'arithmetic: (( )) and let join tokens that touch in the source without a space',
  upstream: 'src/parser/parser.ts parseArithmeticCommand (when building the expression text from tokens, add a space only where the source had whitespace between the previous token and this one)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let c=this.current().value,u=n.length>0?n[n.length-1]:"";n.length>0&&!n.endsWith(" ")&&!(c==="="&&/[|&^+\\-*/%<>]$/.test(n))',
      replace:
        'let __k=this.current(),__j=this.tokens[this.pos-1],c=__k.value,u=n.length>0?n[n.length-1]:"";n.length>0&&!n.endsWith(" ")&&!(__j&&__j.type!==E.DPAREN_START&&__k.start===__j.end)&&!(c==="="&&/[|&^+\\-*/%<>]$/.test(n))',
    },
  ],
};
