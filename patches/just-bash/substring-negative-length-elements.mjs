// `${@:offset:length}`, `${*:…}` and `${a[@]:offset:length}` with a negative length are an expansion error named by
// the length as written (`-1: substring expression < 0`, `n: …`), which abandons the line with status 1: bash's manual, "Shell Parameter
// Expansion" ("It is an expansion error if length evaluates to a number less than zero" for `@`, `*` and arrays).
// just-bash counted the positional parameters' end back from the last one, and named an array's error `a[@]`.
export default {
  title: 'a negative length in a substring of the positional parameters or an array is an expansion error named by the length',
  upstream: 'src/interpreter/expansion/parameter-ops.ts (positional and array Substring): throw ArithmeticError("LENGTH: substring expression < 0") for a negative length',
  file: 'dist/bundle/index.js',
  edits: [
    { find: "u=l.length?await n(e,l.length.expression):void 0,f=Number.parseInt(e.state.env.get(\"#\")||\"0\",10),d=[];", replace: "u=l.length?await n(e,l.length.expression):void 0,f=Number.parseInt(e.state.env.get(\"#\")||\"0\",10),d=[];if(u!==void 0&&u<0)throw new ce(`${l.length.originalText??u}: substring expression < 0`);" },
    { find: "c=a.length?await n(e,a.length.expression):void 0,u=Number.parseInt(e.state.env.get(\"#\")||\"0\",10),f=[];", replace: "c=a.length?await n(e,a.length.expression):void 0,u=Number.parseInt(e.state.env.get(\"#\")||\"0\",10),f=[];if(c!==void 0&&c<0)throw new ce(`${a.length.originalText??c}: substring expression < 0`);" },
    { find: "if(i!==void 0){let h=i<0?d.length+i:p+i;return d.slice(p,Math.max(p,h)).join(\" \")}", replace: "if(i!==void 0){if(i<0)throw new ce(`${r.length.originalText??i}: substring expression < 0`);return d.slice(p,p+i).join(\" \")}" },
    { find: "if(i<0)throw new ce(`${o[1]}[@]: substring expression < 0`)", replace: "if(i<0)throw new ce(`${r.length.originalText??i}: substring expression < 0`)" },
    { find: "if(u<0)throw new ce(`${o}[@]: substring expression < 0`)", replace: "if(u<0)throw new ce(`${l.length.originalText??u}: substring expression < 0`)" },
    { find: "if(o<0)throw new ce(`${n}[@]: substring expression < 0`)", replace: "if(o<0)throw new ce(`${s.length.originalText??o}: substring expression < 0`)" },
  ],
};
