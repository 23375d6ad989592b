// The last variable of `read` gets the rest of the line as bash's read builtin gives it: when that rest is one
// field (a word, then IFS whitespace, at most one IFS delimiter and IFS whitespace), the word alone
// (`IFS=' ,' read a b c <<< " 1 , 2 ,3 ,"` gives c=`3`; `IFS=': ' read a b <<< "k: v : "` gives b=`v`); otherwise
// the rest with its trailing IFS whitespace stripped. just-bash stripped the trailing delimiter but kept the IFS
// whitespace before it (`3 `, `v `).
export default {
  title: 'read: the last variable drops a lone trailing delimiter with the IFS whitespace around it',
  upstream: "src/interpreter/builtins/read.ts: the last variable's value as bash's read.def (get_word_from_string, then strip_trailing_ifs_whitespace)",
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: "function _l(e,t,n){if(t===\"\")return e;let{whitespace:r,nonWhitespace:s}=Ii(t),i=e.length;for(;i>0&&r.has(e[i-1]);){if(!n&&i>=2){let a=0,l=i-2;for(;l>=0&&e[l]===\"\\\\\";)a++,l--;if(a%2===1)break}i--}let o=e.substring(0,i);if(o.length>=1&&s.has(o[o.length-1])){if(!n&&o.length>=2){let l=0,c=o.length-2;for(;c>=0&&o[c]===\"\\\\\";)l++,c--;if(l%2===1)return o}let a=o.substring(0,o.length-1);if(!mp(a,s))return a}return o}",
      replace: "function _l(e,t,n){if(t===\"\")return e;let{whitespace:r,nonWhitespace:s}=Ii(t),i=0;for(;i<e.length&&!r.has(e[i])&&!s.has(e[i]);)i+=!n&&e[i]===\"\\\\\"?2:1;let o=Math.min(i,e.length);for(;o<e.length&&r.has(e[o]);)o++;for(o<e.length&&s.has(e[o])&&o++;o<e.length&&r.has(e[o]);)o++;if(o>=e.length)return e.substring(0,Math.min(i,e.length));let a=e.length;for(;a>0&&r.has(e[a-1]);){if(!n&&a>=2){let l=0,c=a-2;for(;c>=0&&e[c]===\"\\\\\";)l++,c--;if(l%2===1)break}a--}return e.substring(0,a)}",
    },
  ],
};
