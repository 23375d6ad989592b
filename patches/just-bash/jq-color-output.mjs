// jq -C's colours, as jq 1.6's jv_dump_term writes them: null 1;30, false/true/numbers 0;39, strings 0;32, arrays
// and objects 1;39 (their brackets, commas and colons), object keys 34;1, each value followed by a reset; the same
// layout as without colour (pretty, -c, --tab, --indent), a raw (-r) top-level string uncoloured.
export default {
  title: 'jq formats JSON with colour escapes when asked',
  upstream: 'src/commands/query-engine (JSON output formatter): a color option that wraps values, brackets, separators and keys in jq\'s default colour escapes',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'function De(e,n,t,r){',
      replace:
        'function jqColorDump(e,n,t,r){let R="\\x1b[0m",s=t.compact??!1,p=t.useTab?"\\t":" ".repeat(t.indent??2),nl=k=>{s||e.append("\\n").repeat(p,k)};if(typeof n=="string"&&t.raw&&r===0){e.append(n);return}let c=`\\x1b[${n==null?"1;30":typeof n=="string"?"0;32":typeof n=="object"?"1;39":"0;39"}m`;e.append(c);if(n==null||typeof n!="object")De(e,n,{...t,color:!1},r+1);else if(Array.isArray(n)){if(n.length===0)e.append("[]");else{e.append("[");n.forEach((v,k)=>{k>0&&e.append(",");nl(r+1);jqColorDump(e,v,t,r+1);e.append(c)});nl(r);e.append(c).append("]")}}else{let u=Object.keys(n);t.sortKeys&&(u=u.sort());if(u.length===0)e.append("{}");else{e.append("{");nl(r+1);u.forEach((k,i)=>{i>0&&(e.append(","),nl(r+1));e.append(R).append("\\x1b[34;1m");Qe(e,k);e.append(R).append(c).append(":");s||e.append(" ");e.append(R);jqColorDump(e,n[k],t,r+1);e.append(c)});nl(r);e.append(c).append("}")}}e.append(R)}function De(e,n,t,r){if(t.color)return jqColorDump(e,n,t,r);',
    },
  ],
};
