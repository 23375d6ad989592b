// A brace sequence of two letters runs through the characters between them whatever their case: `{Z..a}` is
// `Z [ \ ] ^ _ ` a`, `{a..Z}` the same backwards (bash's braces.c mkseq walks the character codes). just-bash refused
// a range from one case to the other with `invalid sequence`. The backslash among them is taken as a quoting
// character by the later quote removal, so its word is empty (`for c in {Z..a}` sees an empty word there; kept by
// brace-range-backslash-word.mjs). Bash's manual, "Brace Expansion".
export default {
  title: 'a brace range from an upper-case to a lower-case letter (or back) runs through the characters between',
  upstream: 'src/interpreter/expansion/brace-range.ts expandCharRange: drop the mixed-case check; walk the character codes as for one case, a backslash giving an empty word',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(l&&f||c&&u){let h=n!==void 0?`..${n}`:"";throw new Rr(`{${e}..${t}${h}}: invalid sequence`)}',
      replace: '',
    },
    {
      find: 'let d=[],p={value:0};if(i<=o)for(let h=i,m=0;h<=o&&m<dr&&Jr(d,String.fromCharCode(h),r,p);h+=a,m++);else for(let h=i,m=0;h>=o&&m<dr&&Jr(d,String.fromCharCode(h),r,p);h-=a,m++);return d}',
      replace: 'let d=[],p={value:0},_c=h=>h===92?"":String.fromCharCode(h);if(i<=o)for(let h=i,m=0;h<=o&&m<dr&&Jr(d,_c(h),r,p);h+=a,m++);else for(let h=i,m=0;h>=o&&m<dr&&Jr(d,_c(h),r,p);h-=a,m++);return d}',
    },
  ],
};
