// jq's regex flags as Oniguruma takes them: x ignores blanks and #-comments in the pattern, s (single line) changes
// nothing visible and p lets `.` match a newline; just-bash ignored x and made s match newlines with `.`.
// capture(re; "g") gives an object for every match, and none when nothing matches (jq: match | … | from_entries).
export default {
  title: "jq regex flags x, s and p, and capture with g",
  upstream: "src/commands/jq/ (regex builtins): Oniguruma's x/s/p flags; capture over every match",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "import{a as j}from\"./chunk-KVG5FR5F.js\";", replace: "import{a as __jqRegex}from\"./chunk-KVG5FR5F.js\";function __jqExtended(p){let o=\"\",cls=!1;for(let i=0;i<p.length;i++){let c=p[i];if(c===\"\\\\\"){o+=c+(p[i+1]??\"\");i++;continue}if(cls){c===\"]\"&&(cls=!1);o+=c;continue}if(c===\"[\"){cls=!0;o+=c;if(p[i+1]===\"^\")o+=p[++i];if(p[i+1]===\"]\")o+=p[++i];continue}if(/\\s/.test(c))continue;if(c===\"#\"){for(;i<p.length&&p[i]!==\"\\n\";)i++;continue}o+=c}return o}\nfunction j(p,f=\"\"){f=String(f);if(f.includes(\"x\"))p=__jqExtended(p);return __jqRegex(p,[...\"gid\"].filter(c=>f.includes(c)).join(\"\")+(f.includes(\"p\")?\"s\":\"\"))}\n" },
    { find: "case\"capture\":{if(typeof e!=\"string\"||t.length===0)return[null];let o=s(e,t[0],r),p=String(o[0]);try{let u=t.length>1?String(s(e,t[1],r)[0]):\"\",i=j(p,u).match(e);return!i||!i.groups?[Object.create(null)]:[i.groups]}catch{return[null]}}", replace: "case\"capture\":{if(typeof e!=\"string\"||t.length===0)return[null];let o=s(e,t[0],r),p=String(o[0]);try{let u=t.length>1?String(s(e,t[1],r)[0]):\"\";return __spzJqMatches(e,p,u,j).map(m=>{let g=Object.create(null);for(let c of m.captures)c.name!==null&&(g[c.name]=c.string);return g})}catch{return[null]}}" },
  ],
};
