// bash's strings are bytes: `x=$'\xff'` holds the one byte ff, `printf '\xe9' | read v` reads the byte e9, and echo
// writes them back as they are; in a UTF-8 locale such a byte counts as one character (`${#x}` is 1), in the C locale
// every byte does. just-bash decoded a byte that is no part of a valid UTF-8 sequence as the Latin-1 character of the
// same number (U+00FF), which it later wrote UTF-8 encoded (`c3 bf`), counted as two bytes under LC_ALL=C, and
// matched as a letter. Such a byte is now kept as the lone surrogate U+DC00 + byte (U+DC80–U+DCFF, Python's
// "surrogateescape"; machines/memory/shell/shell-text.ts), from `$'…'`, from a command substitution's output and from
// `read`/`mapfile`'s input; the encoder (patches/just-bash/when-bytes-not-utf8-encoding.mjs) writes it back as the
// byte; `${#x}` under LC_ALL=C counts it as one byte; `declare -p`, `set` and `printf %q`-style quoting show it as
// `$'\377'`, as bash does.
const decode =
  'function __jbShellText(b){let t="",n=0;for(;n<b.length;){let r=b[n];if(r<128){t+=String.fromCharCode(r),n++;continue}' +
  'let k=r>=194&&r<=223?2:r>=224&&r<=239?3:r>=240&&r<=244?4:0,ok=k>0&&n+k<=b.length;for(let i=1;ok&&i<k;i++)ok=(b[n+i]&192)===128;' +
  'ok&&k===3&&(r===224&&b[n+1]<160||r===237&&b[n+1]>=160)&&(ok=!1);ok&&k===4&&(r===240&&b[n+1]<144||r===244&&b[n+1]>=144)&&(ok=!1);' +
  'if(!ok){t+=String.fromCharCode(56320+r),n++;continue}' +
  'let c=k===2?(r&31)<<6|b[n+1]&63:k===3?(r&15)<<12|(b[n+1]&63)<<6|b[n+2]&63:(r&7)<<18|(b[n+1]&63)<<12|(b[n+2]&63)<<6|b[n+3]&63;t+=String.fromCodePoint(c),n+=k}return t}' +
  'function __jbShellByteLength(v){let n=Buffer.byteLength(v,"utf8");for(let i=0;i<v.length;i++){let c=v.charCodeAt(i);c>=56448&&c<=56575&&!(i>0&&v.charCodeAt(i-1)>=55296&&v.charCodeAt(i-1)<=56319)&&(n-=2)}return n}' +
  'function __jbEscapedByte(e,i){let c=e.charCodeAt(i);return c>=56448&&c<=56575&&!(i>0&&e.charCodeAt(i-1)>=55296&&e.charCodeAt(i-1)<=56319)}';
export default {
  title: 'a byte that is not UTF-8 stays that byte in shell strings ($\'\\xff\', command substitution, read), one character, quoted as $\'\\377\'',
  upstream: 'src/interpreter: keep bytes that are not UTF-8 as U+DC00+byte when decoding ANSI-C strings, command substitution output and read/mapfile input; src/encoding.ts: encode them back as the byte; ${#v} in the C locale counts them as one byte; quoting for declare -p/set prints them as octal escapes',
  file: 'dist/bundle/index.js',
  edits: [
    // $'…': bytes decoded a sequence at a time.
    { find: 'function bd(e){', replace: `${decode}function bd(e){return __jbShellText(e)}function __jbLatin1Decode(e){` },
    // read, mapfile.
    {
      find: 'function spzUtf8Text(x){if(!/[\\x80-\\xff]/.test(x)||/[^\\x00-\\xff]/.test(x))return x;try{return new TextDecoder("utf-8",{fatal:!0}).decode(Uint8Array.from(x,c=>c.charCodeAt(0)))}catch{return x}}',
      replace: 'function spzUtf8Text(x){if(!/[\\x80-\\xff]/.test(x)||/[^\\x00-\\xff]/.test(x))return x;return __jbShellText(Buffer.from(x,"latin1"))}',
    },
    // $(…) of bytes output.
    {
      find: 'let m=(p.stdoutKind==="bytes"?p.stdout.replace(/[\\xc2-\\xdf][\\x80-\\xbf]|[\\xe0-\\xef][\\x80-\\xbf]{2}|[\\xf0-\\xf4][\\x80-\\xbf]{3}/g,q=>{try{return new TextDecoder("utf-8",{fatal:!0}).decode(Uint8Array.from(q,z=>z.charCodeAt(0)))}catch{return q}}):p.stdout)',
      replace: 'let m=(p.stdoutKind==="bytes"?/[\\x80-\\xff]/.test(p.stdout)?__jbShellText(Buffer.from(p.stdout,"latin1")):p.stdout:p.stdout)',
    },
    // ${#v} in the C locale.
    { find: 'return/utf-?8/i.test(l)?[...v].length:Buffer.byteLength(v,"utf8")}', replace: 'return/utf-?8/i.test(l)?[...v].length:__jbShellByteLength(v)}' },
    // declare -p, set: $'\377'.
    {
      find: 'function gr(e){for(let t=0;t<e.length;t++){let n=e.charCodeAt(t);if(n<32||n===127)return!0}return!1}',
      replace: 'function gr(e){for(let t=0;t<e.length;t++){let n=e.charCodeAt(t);if(n<32||n===127||__jbEscapedByte(e,t))return!0}return!1}',
    },
    {
      find: 's===92?t+="\\\\\\\\":s<32||s===127?t+=`\\\\${s.toString(8).padStart(3,"0")}`:t+=r}return t+="\'",t}',
      replace: 's===92?t+="\\\\\\\\":s<32||s===127?t+=`\\\\${s.toString(8).padStart(3,"0")}`:__jbEscapedByte(e,n)?t+=`\\\\${(s-56320).toString(8)}`:t+=r}return t+="\'",t}',
    },
  ],
};
