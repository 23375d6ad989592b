// jq's ltrimstr and rtrimstr trim only when the input and the argument are both strings: `"123" | ltrimstr(1)` is
// "123" (just-bash turned the number into the string "1").
export default {
  title: "jq ltrimstr and rtrimstr leave the input when the argument is no string",
  upstream: "src/commands/jq/ (ltrimstr, rtrimstr): a non-string argument leaves the input as it is",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "case\"ltrimstr\":{if(typeof e!=\"string\"||t.length===0)return[e];let o=s(e,t[0],r),p=String(o[0]);", replace: "case\"ltrimstr\":{if(typeof e!=\"string\"||t.length===0)return[e];let o=s(e,t[0],r);if(typeof o[0]!=\"string\")return[e];let p=o[0];" },
    { find: "case\"rtrimstr\":{if(typeof e!=\"string\"||t.length===0)return[e];let o=s(e,t[0],r),p=String(o[0]);", replace: "case\"rtrimstr\":{if(typeof e!=\"string\"||t.length===0)return[e];let o=s(e,t[0],r);if(typeof o[0]!=\"string\")return[e];let p=o[0];" },
  ],
};
