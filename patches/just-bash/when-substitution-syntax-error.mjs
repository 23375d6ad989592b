// bash 5.2 parses a `$(…)` with the script (parse.y's parse_comsub), so a syntax error inside it is the script's,
// named as its own parser met it: `x=$(echo a; if)` is `syntax error near unexpected token `)'` (the `)` that closes
// the substitution came where a command was due), on the line of the failing token counted in the whole script, and
// the line quoted is that line of the script. just-bash parsed the text on its own, so an error at its end read
// `unexpected token `'` and every line counted from the `$(`. The error is raised again at the word, carrying the
// token bash names and how many lines above the word's end it stands (`spzSubstToken`, `spzSubstLines`); the embedder
// words it (machines/memory/shell/syntax-errors.ts).
export default {
  title: 'a syntax error inside $(…) names the token bash names, on the script\'s line',
  upstream: 'src/parser/expansion-parser.ts parseCommandSubstitution: rethrow a ParseException of the body at the enclosing word, naming `)` for an end of input and the line within the script',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Ma(e,t,n,r){let s=t+2,i=La(e,s,r),o=e.slice(s,i),l=n().parse(o);return',
      replace:
        'function Ma(e,t,n,r){let s=t+2,i=La(e,s,r),o=e.slice(s,i),l;try{l=n().parse(o)}catch(_x){if(_x?.name!=="ParseException"||!_x.token||_x.spzSubstToken!==void 0)throw _x;let _t=_x.token.type==="EOF"?")":_x.token.value,_n=(e.match(/\\n/g)?.length??0)-(e.slice(0,s).match(/\\n/g)?.length??0)-(_x.line??1)+1;try{r(`syntax error near unexpected token \\`${_t}\'`)}catch(_o){throw Object.assign(_o,{spzSubstToken:_t,spzSubstLines:_n})}}return',
    },
  ],
};
