// jq counts a string in Unicode code points (jq's strings are UTF-8; its length, slices and split("") walk code
// points), where JavaScript counts UTF-16 units: "😀" | length is 1, .[1:3] of "a😀bcd" is "😀b", split("") keeps an
// emoji whole, and a regex's `.` in sub/gsub/match/scan takes a whole emoji.
export default {
  title: "jq counts strings in code points: length, slices, split(\"\") and regex matches",
  upstream: "src/commands/jq/ (builtins length/split, Slice, the native regex in matches): use code points ([...s]) and the u flag",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "case\"length\":return typeof e==\"string\"?[e.length]", replace: "case\"length\":return typeof e==\"string\"?[[...e].length]" },
    { find: "return U(r,Ze(e,p,Be(r))),[e.split(p)]}", replace: "return U(r,Ze(e,p,Be(r))),[p===\"\"?[...e]:e.split(p)]}" },
    { find: "let o=s.length,p=n.start?d(e,n.start,t):[0],u=n.end?d(e,n.end,t):[o];", replace: "let cp=typeof s==\"string\"?[...s]:null,o=cp?cp.length:s.length,p=n.start?d(e,n.start,t):[0],u=n.end?d(e,n.end,t):[o];" },
    { find: "return Array.isArray(s),s.slice(y,m)}))})}case\"Iterate\"", replace: "return cp?cp.slice(y,m).join(\"\"):s.slice(y,m)}))})}case\"Iterate\"" },
    { find: "n=x.native;if(!(n instanceof RegExp))n=null}catch{n=null}", replace: "n=x.native;if(!(n instanceof RegExp))n=null;else if(!n.unicode)try{n=new RegExp(n.source,n.flags+\"u\")}catch{}}catch{n=null}" },
  ],
};
