// `read` and `mapfile` give their variables the characters of the line it read: the bytes it takes from its input (a file, a pipe,
// a here-string) are UTF-8, and just-bash gave each byte to the variable as a character of its own, which the
// output then encoded again (`echo é | while read -r l; do echo "$l"; done` wrote `c3 83 c2 a9`; `${#line}` counted
// bytes). A line that is valid UTF-8 is decoded; one that is not (latin-1) keeps its bytes as before.
export default {
  title: 'read and mapfile decode the UTF-8 lines they read into characters',
  upstream: 'src/interpreter/builtins/read.ts, mapfile.ts: decode the consumed bytes as UTF-8 (decodeBytesToUtf8) before splitting into fields and assigning',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'S===`\n`&&v.endsWith(`\n`)&&(v=v.slice(0,-1));',
      replace: 'S===`\n`&&v.endsWith(`\n`)&&(v=v.slice(0,-1));v=spzUtf8Text(v);',
    },
    {
      find: 'v=b.substring(0,_),C(v),N=_,P=_>=l,$(N);let T=d[0]||"REPLY";e.state.env.set(T,v);',
      replace: 'v=b.substring(0,_),C(v),N=_,P=_>=l,$(N);let T=d[0]||"REPLY";e.state.env.set(T,spzUtf8Text(v));',
    },
    {
      find: 'mapfile: string length limit exceeded (${e.limits.maxStringLength} bytes)`,"string_length");f.push(g)}',
      replace: 'mapfile: string length limit exceeded (${e.limits.maxStringLength} bytes)`,"string_length");f.push(spzUtf8Text(g))}',
    },
    {
      find: 'function qo(e,t,n,r=-1){',
      replace:
        '/** The characters of `x`, a string of bytes (one char per byte), when those bytes are valid UTF-8 with some non-ASCII; else `x` unchanged (text already, ASCII, or bytes that are not UTF-8). */\nfunction spzUtf8Text(x){if(!/[\\x80-\\xff]/.test(x)||/[^\\x00-\\xff]/.test(x))return x;try{return new TextDecoder("utf-8",{fatal:!0}).decode(Uint8Array.from(x,c=>c.charCodeAt(0)))}catch{return x}}\nfunction qo(e,t,n,r=-1){',
    },
  ],
};
