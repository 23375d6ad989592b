// The encoder of shell text to bytes (just-bash's encodeUtf8ToBytes and utf8ByteLength, used for pipes, here-strings,
// redirections and joined output) writes a byte kept as U+DC00 + byte (patches/just-bash/when-bytes-not-utf8.mjs) as
// that byte, and counts it as one: TextEncoder wrote U+FFFD (`ef bf bd`) for it.
export default {
  title: 'shell text is encoded with each escaped byte (U+DC80–U+DCFF) written as the byte itself',
  upstream: 'src/encoding.ts encodeUtf8ToBytes/utf8ByteLength: a lone low surrogate U+DC80..U+DCFF is the byte it escapes',
  file: 'dist/bundle/chunks/chunk-GN6CQ3J4.js',
  edits: [
    {
      find: 'let e=y.encode(t),o="";for(let r=0;r<e.length;r++)o+=String.fromCharCode(e[r]);return o}',
      replace:
        'if(/[\\udc80-\\udcff]/.test(t)){let o="";for(let r=0;r<t.length;r++){let c=t.charCodeAt(r);if(c>=56448&&c<=56575&&!(r>0&&t.charCodeAt(r-1)>=55296&&t.charCodeAt(r-1)<=56319)){o+=String.fromCharCode(c-56320);continue}let w=c>=55296&&c<=56319&&r+1<t.length?t.slice(r,r+2):t[r];w.length===2&&r++;let q=y.encode(w);for(let i=0;i<q.length;i++)o+=String.fromCharCode(q[i])}return o}' +
        'let e=y.encode(t),o="";for(let r=0;r<e.length;r++)o+=String.fromCharCode(e[r]);return o}',
    },
    { find: 'else if(o>=55296&&o<=56319&&e+1<t.length){', replace: 'else if(o>=56448&&o<=56575)n++;else if(o>=55296&&o<=56319&&e+1<t.length){' },
  ],
};
