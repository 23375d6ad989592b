// GNU sed edits bytes: a byte that is not part of a UTF-8 character (latin-1 text, binary) passes through unchanged,
// is matched by its own `\xHH` and by no `.` (sed manual, "Locale Considerations": invalid multibyte sequences).
// just-bash decoded every input as UTF-8, so `sed 's/cr/CR/'` on latin-1 wrote U+FFFD (`ef bf bd`) in place of `e9`,
// and a piped `e9` came out as `c3 a9`. Here the input is decoded with each such byte as a private-use character
// (U+F780 + byte - 0x80), which `.` does not match (`.` matches every character else, a newline too, as GNU's does) and the output turns back into the byte (the -i write here, stdout
// in sed-command.ts); a run of `\xHH` escapes in a regex stands for the characters its bytes spell, so
// `s/^\xef\xbb\xbf//` strips a BOM and `s/\xe9/E/` matches the byte (an ASCII one is the character itself, special
// or not: GNU's `a\x2eb` matches `axb`); a negated bracket expression does not match such a byte either.
const helpers = [
  'function sedBytesText(t){if(!/[\\x80-\\xff]/.test(t))return t;const b=Buffer.from(t,"latin1");let o="",i=0;while(i<b.length){const c=b[i];if(c<128){o+=String.fromCharCode(c),i++;continue}const n=c>=194&&c<=223?2:c>=224&&c<=239?3:c>=240&&c<=244?4:0;let ok=n>0&&i+n<=b.length;for(let k=1;ok&&k<n;k++)(b[i+k]&192)!==128&&(ok=!1);if(ok){const s=b.toString("utf8",i,i+n),p=s.codePointAt(0);if(!(n===3&&(p<2048||p>=55296&&p<=57343)||n===4&&(p<65536||p>1114111))){o+=s,i+=n;continue}}o+=String.fromCharCode(63232+c),i++}return o}',
  'function sedBytesOut(s){if(!/[\\uf780-\\uf7ff]/.test(s))return s;const parts=[];for(const ch of s){const c=ch.codePointAt(0);parts.push(c>=63360&&c<=63487?Buffer.from([c-63232]):Buffer.from(ch,"utf8"))}return Buffer.concat(parts)}',
].join('');

export default {
  title: 'sed keeps bytes that are not UTF-8, matches them by \\xHH and not by .',
  upstream: 'src/commands/sed/sed.ts (input decoding and the -i write) and the regex compiler: a byte-preserving decoding of the input, its inverse on output, and \\xHH runs read as the bytes they spell',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    { find: 'function sedUnicodePattern(p){', replace: `${helpers}function sedUnicodePattern(p){p=p.replace(/(?:\\\\x[0-9A-Fa-f]{2})+/g,(m,at)=>{let q=at,k=0;for(;q>0&&p[q-1]==="\\\\";q--)k++;if(k%2)return m;return[...sedBytesText(m.replace(/\\\\x/g,"").replace(/../g,h=>String.fromCharCode(parseInt(h,16))))].map(c=>c==="\\\\"||c==="/"?"\\\\"+c:c==="\\n"?"\\\\n":c).join("")});` },
    { find: 'if(c==="["){b=!0,o+=c;if(p[i+1]==="^")o+=p[++i];', replace: 'if(c==="["){b=!0,o+=c;if(p[i+1]==="^")o+=p[++i]+"\\uf780-\\uf7ff";' },
    { find: 'if(c==="\\\\"&&i+1<p.length){const d=p[++i];if(d==="w")', replace: 'if(c==="."){o+="[^\\uf780-\\uf7ff]";continue}if(c==="\\\\"&&i+1<p.length){const d=p[++i];if(d==="w")' },
    { find: 'let d="";if(o.length===0){d=P(e.stdin);try{', replace: 'let d="";if(o.length===0){P(e.stdin),d=sedBytesText(e.stdin);try{' },
    { find: '(f=P(e.stdin),E=!0)', replace: '(P(e.stdin),f=sedBytesText(e.stdin),E=!0)' },
    { find: '"input file read",()=>e.fs.readFile(b))', replace: '"input file read",()=>e.fs.readFileBuffer(b).then(u=>sedBytesText(Buffer.from(u).toString("latin1"))))' },
    { find: '"in-place input read",()=>e.fs.readFile(f))', replace: '"in-place input read",()=>e.fs.readFileBuffer(f).then(u=>sedBytesText(Buffer.from(u).toString("latin1"))))' },
    { find: '"in-place output write",()=>e.fs.writeFile(f,v.output))', replace: '"in-place output write",()=>e.fs.writeFile(f,sedBytesOut(v.output)))' },
  ],
};
