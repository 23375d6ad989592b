// read -n N and -N N count characters in a UTF-8 locale (LC_ALL, LC_CTYPE or LANG naming UTF-8), as bash reads
// multibyte characters whole: `printf 'héllo' | read -n 2` gives "hé"; in the C locale they count bytes.
// just-bash always counted bytes, so a character was cut in two.
export default {
  title: "read -n and -N count characters in a UTF-8 locale",
  upstream: "src/interpreter/builtins/read: count -n/-N in characters when the locale is UTF-8",
  file: "dist/bundle/index.js",
  edits: [
    { find: "if(l>=0){let _=Math.min(l,b.length);v=b.substring(0,_)", replace: "let U8=/utf-?8/i.test(e.state.env.get(\"LC_ALL\")||e.state.env.get(\"LC_CTYPE\")||e.state.env.get(\"LANG\")||\"\"),W=T=>{if(!U8)return 1;let c=b.charCodeAt(T),w=c>=240&&c<248?4:c>=224?3:c>=192?2:1;for(let k=1;k<w;k++){let d=b.charCodeAt(T+k);if(!(d>=128&&d<192))return 1}return w};if(l>=0){let _=0,K=0;for(;K<l&&_<b.length;K++)_+=W(_);_=Math.min(_,b.length);v=b.substring(0,_)" },
    { find: "P=_>=l,$(N);let T=d[0]||\"REPLY\"", replace: "P=K>=l,$(N);let T=d[0]||\"REPLY\"" },
    { find: "A(ae),T+=2,_++,N=T}else A(oe),T++,_++,N=T}P=_>=a||F,$(N)}", replace: "A(ae),T+=2,_++,N=T}else{let w=W(T);A(b.substr(T,w)),T+=w,_++,N=T}}P=_>=a||F,$(N)}" },
  ],
};
