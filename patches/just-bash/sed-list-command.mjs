// GNU sed's `l`: an embedded newline shows as `\n`, a non-ASCII character as the octal escapes of its UTF-8
// bytes, and lines wrap at 70 columns (`l N` sets the width, `l 0` never wraps) with a `\` before each break.
// GNU sed manual, "Other Commands"; just-bash printed `$` and a line break for a newline, one octal escape per
// character, and never wrapped.
export default {
  title: "sed l escapes newlines and UTF-8 bytes and wraps at its width",
  upstream: "src/commands/sed/executor.ts: the list escaper takes a width (default 70, from `l N`), escapes a newline as \\n and other characters as their UTF-8 bytes",
  file: "dist/bundle/chunks/chunk-CFBEDNHJ.js",
  edits: [
    { find: "function se(i){let e=\"\";for(let t=0;t<i.length;t++){let n=i[t],s=n.charCodeAt(0);n===\"\\\\\"?e+=\"\\\\\\\\\":n===\"\t\"?e+=\"\\\\t\":n===`\n`?e+=`$\n`:n===\"\\r\"?e+=\"\\\\r\":n===\"\\x07\"?e+=\"\\\\a\":n===\"\\b\"?e+=\"\\\\b\":n===\"\\f\"?e+=\"\\\\f\":n===\"\\v\"?e+=\"\\\\v\":s<32||s>=127?e+=`\\\\${s.toString(8).padStart(3,\"0\")}`:e+=n}return`${e}$`}", replace: "function se(i,w=70){let e=\"\",o=0;for(let n of i){let s=n.codePointAt(0),q=n===\"\\\\\"?\"\\\\\\\\\":n===\"\\t\"?\"\\\\t\":n===\"\\n\"?\"\\\\n\":n===\"\\r\"?\"\\\\r\":n===\"\\x07\"?\"\\\\a\":n===\"\\b\"?\"\\\\b\":n===\"\\f\"?\"\\\\f\":n===\"\\v\"?\"\\\\v\":s<32||s>=127?[...new TextEncoder().encode(n)].map(b=>\"\\\\\"+b.toString(8).padStart(3,\"0\")).join(\"\"):n;w>0&&o+q.length>w-1&&(e+=\"\\\\\\n\",o=0),e+=q,o+=q.length}return e+\"$\"}" },
    { find: "case\"list\":{let r=se(e.patternSpace);", replace: "case\"list\":{let r=se(e.patternSpace,i.width??70);" },
    { find: "case\"l\":return{command:{type:\"list\",address:t}};", replace: "case\"l\":return{command:{type:\"list\",address:t,width:e.arg}};" },
  ],
};
