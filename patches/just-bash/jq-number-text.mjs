// jq 1.6 prints a number with the shortest digits that read back the same, in plain notation unless the decimal
// point would sit more than 15 places past the digits or 4 or more places before them (`1e+17`, `1e-05`, but
// `15000000000000000` and `0.0001`), with a two-digit exponent at least; `-0` keeps its sign; an infinity is the
// largest double (`1.7976931348623157e+308`); NaN is `null` (src/jv_print.c, jv_dump_term; src/jv_dtoa.c,
// jvp_dtoa_fmt). `tostring`, `tojson` and string interpolation write numbers the same way. just-bash used
// JavaScript's text (`100000000000000000`, `0`, and `null` for an infinity).
export default {
  title: 'jq prints numbers as jq 1.6 does (1e+17, -0, 1.7976931348623157e+308)',
  upstream: 'src/commands/query-engine (JSON output, tostring/tojson/interpolation): format numbers like jvp_dtoa_fmt',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'function De(e,n,t,r){',
      replace:
        'function __jqNumberText(x){if(Number.isNaN(x))return"null";x=Math.max(-17976931348623157e292,Math.min(17976931348623157e292,x));if(x===0)return Object.is(x,-0)?"-0":"0";' +
        'let[m,ex]=x.toExponential().split("e"),neg=m.startsWith("-"),digits=m.replace(/^-/,"").replace(".",""),pt=Number(ex)+1,out;' +
        'if(pt<=-4||pt>digits.length+15){let k=pt-1;out=digits[0]+(digits.length>1?"."+digits.slice(1):"")+"e"+(k<0?"-":"+")+String(Math.abs(k)).padStart(2,"0")}' +
        'else out=pt<=0?"0."+"0".repeat(-pt)+digits:pt>=digits.length?digits+"0".repeat(pt-digits.length):digits.slice(0,pt)+"."+digits.slice(pt);return(neg?"-":"")+out}' +
        // jq's compact text of any value (tostring, tojson, interpolation).
        'function __jqDump(v){return typeof v=="number"?__jqNumberText(v):v===null||typeof v!="object"?JSON.stringify(v):Array.isArray(v)?`[${v.map(__jqDump).join(",")}]`:`{${Object.keys(v).map(k=>JSON.stringify(k)+":"+__jqDump(v[k])).join(",")}}`}' +
        'function De(e,n,t,r){',
    },
    { find: 'Number.isFinite(n)?String(n):"null"', replace: '__jqNumberText(n)' },
    { find: 'case"tostring":return typeof e=="string"?[e]:[JSON.stringify(e)];', replace: 'case"tostring":return typeof e=="string"?[e]:[__jqDump(e)];' },
    { find: 'case"tojsonstream":{let o=r.limits.maxDepth??Ae;return B(e,o+1)>o?[null]:[JSON.stringify(e)]}', replace: 'case"tojsonstream":{let o=r.limits.maxDepth??Ae;return B(e,o+1)>o?[null]:[__jqDump(e)]}' },
    { find: 'r.append(typeof p=="string"?p:JSON.stringify(p))', replace: 'r.append(typeof p=="string"?p:__jqDump(p))' },
    { find: 'case"@json":{let r=t??ze;return B(e,r+1)>r?[null]:[JSON.stringify(e)]}', replace: 'case"@json":{let r=t??ze;return B(e,r+1)>r?[null]:[__jqDump(e)]}' },
  ],
};
