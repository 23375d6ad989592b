// GNU sed's case conversion in a replacement: \U and \L turn what follows to upper or lower case until \E (or
// the other one), \u and \l the next character only: `s/.*/\U&/` upper-cases the line. GNU sed manual, "The s
// Command"; just-bash printed the letter after the backslash. Each character maps as towupper/towlower map it, to one
// character: `ß` stays `ß` (JavaScript's full case mapping makes it `SS`).
export default {
  title: "sed replacements honour \\U \\L \\u \\l \\E",
  upstream: "src/commands/sed/executor.ts: the replacement builder keeps a case mode (\\U/\\L until \\E) and a one-character case (\\u/\\l) applied to every character it emits",
  file: "dist/bundle/chunks/chunk-CFBEDNHJ.js",
  edits: [
    { find: "function j(i,e,t){let n=\"\",s=0;for(;s<i.length;){if(i[s]===\"\\\\\"&&s+1<i.length){let a=i[s+1];if(a===\"&\"){n+=\"&\",s+=2;continue}if(a===\"n\"){n+=`\n`,s+=2;continue}if(a===\"t\"){n+=\"\t\",s+=2;continue}if(a===\"r\"){n+=\"\\r\",s+=2;continue}let r=parseInt(a,10);if(r===0){n+=e,s+=2;continue}if(r>=1&&r<=9){n+=t[r-1]||\"\",s+=2;continue}n+=a,s+=2;continue}if(i[s]===\"&\"){n+=e,s++;continue}n+=i[s],s++}return n}", replace: "function j(i,e,t){let n=\"\",s=0,m=0,o=0,K=(c,up)=>{let v=up?c.toUpperCase():c.toLowerCase();return[...v].length===1?v:c},p=r=>{for(let c of r){let y=c;o?(y=K(y,o===1),o=0):m&&(y=K(y,m===1)),n+=y}};for(;s<i.length;){if(i[s]===\"\\\\\"&&s+1<i.length){let a=i[s+1];if(a===\"U\"||a===\"L\"){m=a===\"U\"?1:2,s+=2;continue}if(a===\"E\"){m=0,o=0,s+=2;continue}if(a===\"u\"||a===\"l\"){o=a===\"u\"?1:2,s+=2;continue}if(a===\"&\"){p(\"&\"),s+=2;continue}if(a===\"n\"){p(\"\\n\"),s+=2;continue}if(a===\"t\"){p(\"\\t\"),s+=2;continue}if(a===\"r\"){p(\"\\r\"),s+=2;continue}let r=parseInt(a,10);if(r===0){p(e),s+=2;continue}if(r>=1&&r<=9){p(t[r-1]||\"\"),s+=2;continue}p(a),s+=2;continue}if(i[s]===\"&\"){p(e),s++;continue}p(i[s]),s++}return n}" },
  ],
};
