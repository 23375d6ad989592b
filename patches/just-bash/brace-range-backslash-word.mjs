// The backslash a letter range runs through (`{Z..a}` is `Z [ \ ] ^ _ ` a`) is taken as a quoting character by the
// later quote removal, so its word is empty — and kept, as a word that was written, not dropped like the null
// result of an unquoted expansion: `echo {Z..b}` prints two spaces between `[` and `]`, `printf '[%s]' {Z..b}`
// prints `[]` there (bash's braces.c mkseq, then quote removal). The range marks that word so the empty-word
// removal after brace expansion keeps it.
export default {
  title: 'the backslash of a letter range ({Z..a}) is an empty word that is kept',
  upstream: 'src/interpreter/expansion/brace-range.ts expandCharRange (the backslash as a marked empty word) and word-glob-expansion.ts (keep that word when dropping empty ones)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: '_c=h=>h===92?"":String.fromCharCode(h);',
      replace: '_c=h=>h===92?"\\0spzEmptyWord\\0":String.fromCharCode(h);',
    },
    {
      find: 's.push(Vi(e,o.join("")))',
      replace: 's.push(Vi(e,((w,k)=>w.includes(k)?w.split(k).join("")||k:w)(o.join(""),"\\0spzEmptyWord\\0")))',
    },
    {
      find: 'async function Op(e,t,n){let r=[];for(let s of t)if(!(!n&&s===""))',
      replace: 'async function Op(e,t,n){let r=[];for(let s of t)if(s==="\\0spzEmptyWord\\0")r.push("");else if(!(!n&&s===""))',
    },
  ],
};
