// The `:` that ends a substring's offset is the first one outside any nesting, `${…}` included: `${x:${s%:*}:2}` and
// `${x:${s#*:}}` take `${s%:*}` whole as the offset (bash's manual, "Shell Parameter Expansion": offset and length
// are arithmetic expressions, expanded first). just-bash counted only parentheses and brackets, cut the offset at the
// pattern's `:`, and failed with an arithmetic syntax error.
export default {
  title: "a substring's offset and length may hold ${…} expansions with a colon in them",
  upstream: 'src/parser/expansion-parser.ts (Substring): count braces too when looking for the colon between offset and length',
  file: 'dist/bundle/index.js',
  edits: [
    { find: "for(let w=0;w<u.length;w++){let b=u[w];if(b===\"(\"||b===\"[\")d++;else if(b===\")\"||b===\"]\")d--;", replace: "for(let w=0;w<u.length;w++){let b=u[w];if(b===\"(\"||b===\"[\"||b===\"{\")d++;else if(b===\")\"||b===\"]\"||b===\"}\")d--;" },
  ],
};
