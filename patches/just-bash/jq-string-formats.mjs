// jq's `@format "text \(f)"` applies the format to each interpolated value and leaves the literal text as it is
// (`@base64 "x\(.a)"`, `@sh "echo \(.x)"`, `@uri "…?q=\(.)"`, `@csv`, `@tsv`, `@html`, `@json "v=\(.a)"`), and the
// text formats take any value through `tostring` first (`[1]|@base64` is "WzFd", `null|@text` is "null") (the
// manual's "Format strings and escaping"; src/builtin.c, f_format). `@csv`/`@tsv` refuse an array or object cell
// (`… is not valid in a csv row`) and a non-array row, and `@tsv` escapes `\`, tab, CR and LF as `\\`, `\t`, `\r`,
// `\n`; a name jq 1.6 has no format for (`@foo`, and `@base32`, which came in jq 1.7) is `foo is not a valid
// format` (status 5). just-bash refused a format followed by a string as a parse error, answered null for a
// non-string, wrote a nested array into a row, and called an unknown format an unknown function.
export default {
  title: 'jq @format "…\\(f)…" strings, and formats of non-string values, as jq 1.6',
  upstream: 'src/commands/query-engine (parser: FORMAT STRING; StringInterp: apply the format to each interpolated value; formats: tostring first, csv/tsv cell checks and tsv escapes)',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'if(t.startsWith("$"))return{type:"VarRef",name:t};',
      replace:
        'if(t.startsWith("@")&&this.check("STRING")){let v=this.advance().value,x=v.includes("\\\\(")?this.parseStringInterpolation(v):{type:"StringInterp",parts:[v]};return x.format=t,x}' +
        'if(t.startsWith("$"))return{type:"VarRef",name:t};',
    },
    {
      find: 'r.append(typeof p=="string"?p:__jqDump(p))',
      replace: 'r.append(n.format?__jqFormat(p,n.format,t):typeof p=="string"?p:__jqDump(p))',
    },
    {
      find: 'function ye(e,n,t){switch(n){',
      replace:
        // One value through a format, with the format's own input rule (a row for @csv/@tsv).
        'function __jqFormat(v,f,r){__jqCheckInput(v,f,[],r);let o=ye(v,f,r.limits.maxDepth);if(o===null)throw new Error(`${f.slice(1)} is not a valid format`);return o[0]}' +
        'function __jqCell(s){if(s!==null&&typeof s=="object")throw new Error(`${__jqOperandText(s)} is not valid in a csv row`);return s}' +
        'function ye(e,n,t){switch(n){',
      replace:
        // One value through a format, with the format's own input rule (a row for @csv/@tsv).
        'function __jqFormat(v,f,r){__jqCheckInput(v,f,[],r);let o=ye(v,f,r.limits.maxDepth);if(o===null)throw new Error(`${f.slice(1)} is not a valid format`);return o[0]}' +
        'function __jqCell(s){if(s!==null&&typeof s=="object")throw new Error(`${__jqOperandText(s)} is not valid in a csv row`);return s}' +
        'function __jqBase32(v,decode){let A="ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",bits="",out="";if(!decode){for(let b of Buffer.from(v,"utf-8"))bits+=b.toString(2).padStart(8,"0");for(let i=0;i<bits.length;i+=5)out+=A[parseInt(bits.slice(i,i+5).padEnd(5,"0"),2)];return out+"=".repeat((8-out.length%8)%8)}' +
        'for(let c of v.replace(/=+$/,"")){let k=A.indexOf(c);if(k<0)break;bits+=k.toString(2).padStart(5,"0")}let bytes=[];for(let i=0;i+8<=bits.length;i+=8)bytes.push(parseInt(bits.slice(i,i+8),2));return Buffer.from(bytes).toString("utf-8")}' +
        'function ye(e,n,t){if(typeof e!="string"&&/^@(base64d?|uri|html|text)$/.test(n))e=__jqDump(e);switch(n){',
    },
    {
      find: 'case"@csv":return Array.isArray(e)?[e.map(s=>{if(s===null)return"";if(typeof s=="boolean")return s?"true":"false";if(typeof s=="number")return String(s);',
      replace: 'case"@csv":return Array.isArray(e)?[e.map(s=>{if(__jqCell(s)===null)return"";if(typeof s=="boolean")return s?"true":"false";if(typeof s=="number")return __jqNumberText(s);',
    },
    {
      find: 'case"@tsv":return Array.isArray(e)?[e.map(r=>String(r??"").replace(/\\t/g,"\\\\t").replace(/\\n/g,"\\\\n")).join("\t")]:[null];',
      replace: 'case"@tsv":return Array.isArray(e)?[e.map(r=>(__jqCell(r)===null?"":typeof r=="number"?__jqNumberText(r):String(r)).replace(/[\\\\\\t\\r\\n]/g,c=>({"\\\\":"\\\\\\\\","\\t":"\\\\t","\\r":"\\\\r","\\n":"\\\\n"})[c])).join("\t")]:[null];',
    },
    {
      find: 'throw new Error(`Unknown function: ${n}`)',
      replace: 'throw new Error(n.startsWith("@")?`${n.slice(1)} is not a valid format`:`Unknown function: ${n}`)',
    },
  ],
};
