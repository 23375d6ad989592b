// bash pads a zero-padded brace sequence to the width of its wider padded end, sign included, as printf's %0*d
// does (braces.c mkseq): {-05..05..5} is -05 000 005 and {03..-3} ends -1 -2 -3 (just-bash left the sign out of the
// width: -05 00 05, and -01 -02 -03).
export default {
  title: "brace sequences pad to the width of their ends, sign included",
  upstream: "src/interpreter/expansion (brace sequences): width = length of a zero-padded end with its sign; %0*d formatting",
  file: "dist/bundle/index.js",
  edits: [
    { find: "if(r?.match(/^-?0\\d/)&&(c=Math.max(c,r.replace(/^-/,\"\").length)),s?.match(/^-?0\\d/)&&(c=Math.max(c,s.replace(/^-/,\"\").length)),", replace: "if(r?.match(/^-?0\\d/)&&(c=Math.max(c,r.length)),s?.match(/^-?0\\d/)&&(c=Math.max(c,s.length))," },
    { find: "f=d=>{if(c>0){let p=d<0,h=String(Math.abs(d)).padStart(c,\"0\");return p?`-${h}`:h}return String(d)}", replace: "f=d=>{if(c>0){let p=d<0,h=String(Math.abs(d)).padStart(p?c-1:c,\"0\");return p?`-${h}`:h}return String(d)}" },
  ],
};
