// In a brace expansion a quoted or escaped comma (or brace) is text, not a separator: `{a\,b,c}` gives `a,b c`, and
// `{a\,b}` (no unquoted comma) is no brace expansion at all. Bash's manual, "Brace Expansion" ("a correctly-formed
// brace expansion must contain unquoted opening and closing braces, and at least one unquoted comma"). just-bash split
// at every comma, so `{a\,b,c}` gave `a\ b c`.
export default {
  title: 'a quoted or escaped comma in {…} does not separate',
  upstream: 'src/parser/word-parser.ts splitBraceItems: skip backslash-escaped characters and quoted runs; parseBraceExpansion: a brace expansion needs two or more items',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function ol(e){let t=[],n="",r=0;for(let s=0;s<e.length;s++){let i=e[s];i==="{"?(r++,n+=i):i==="}"?(r--,n+=i):i===","&&r===0?(t.push(n),n=""):n+=i}return t.push(n),t}',
      replace: 'function ol(e){let t=[],n="",r=0,q="";for(let s=0;s<e.length;s++){let i=e[s];if(q){n+=i,i===q&&(q="");continue}if(i==="\\\\"&&s+1<e.length){n+=i+e[++s];continue}if(i==="\'"||i===\'"\'){q=i,n+=i;continue}i==="{"?(r++,n+=i):i==="}"?(r--,n+=i):i===","&&r===0?(t.push(n),n=""):n+=i}return t.push(n),t}',
    },
    { find: ':i.includes(",")&&r?{part:{type:"BraceExpansion",items:ol(i)', replace: ':ol(i).length>1&&r?{part:{type:"BraceExpansion",items:ol(i)' },
    { find: ':i.includes(",")?{part:{type:"BraceExpansion",items:ol(i)', replace: ':ol(i).length>1?{part:{type:"BraceExpansion",items:ol(i)' },
  ],
};
