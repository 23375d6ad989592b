// bash reads `$((` to its matching `))` (and `$[` to its `]`) while it parses, so a script whose `$((` is still open
// at the end of the input does not parse: `unexpected EOF while looking for matching `)'` (`]'` for `$[`), status 2,
// and none of the script's last command line runs; bash names the line where the command began. A here-document's
// body is expanded when it runs, so it is left as it was. just-bash took the rest of the input as the expression (and
// `$[` without `]` as text), ran the commands before it and went on.
export default {
  title: 'an unclosed $(( or $[ at the end of the input is a syntax error',
  upstream: 'src/parser/parser.ts parseArithmeticExpansion (error when the loop ends with the depth still open) and expansion-parser.ts parseDollar (error when `$[` has no `]`)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let a=t.slice(r,o),l=this.parseArithmeticExpression(a);return{part:M.arithmeticExpansion(l),endIndex:o+2}}',
      replace: 'if(s>0&&!this._spzHd)this.error("unexpected EOF while looking for matching \')\'");let a=t.slice(r,o),l=this.parseArithmeticExpression(a);return{part:M.arithmeticExpansion(l),endIndex:o+2}}',
    },
    {
      find: 'if(o===0){let l=t.slice(s+1,a),c=re(e,l);return{part:M.arithmeticExpansion(c),endIndex:a+1}}}',
      replace: 'if(o===0){let l=t.slice(s+1,a),c=re(e,l);return{part:M.arithmeticExpansion(c),endIndex:a+1}}e._spzHd||e.error("unexpected EOF while looking for matching \']\'")}',
    },
  ],
};
