// `h=(["key"]=value)` assigns the key `key` (bash's manual, "Arrays": `name=([subscript]=value …)`, the subscript
// quoted or not). The shell engine's words reach the assignment with the `]` after a quoted key as an escaped
// character of its own (`[`, "key", \], =value), which just-bash's test for a keyed element did not expect, so a
// double-quoted key made the element a plain value (`[0]="[key]=value"`) or, beside keyed ones, an error (must use
// subscript). Here that `]` is read as the one that closes the key, and a double-quoted key with expansions in it
// (`["$k"]=v`) is expanded (just-bash kept only its literal text). So is an unquoted key with expansions,
// `a=([$i+1]=y)`, `h=([$k]=v)` (just-bash took such an element for a plain value, or for an error in an
// associative array).
export default {
  title: 'h=(["key"]=value), h=([$k]=v), a=([$i+1]=v): keyed elements with quoted keys or expansions in the key',
  upstream: 'src/interpreter/helpers/array-assignment.ts isKeyedElement/parseKeyedElement: after a quoted key accept a lone "]" part followed by "=…" or "+=…" as well as a "]=…" literal',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(t.parts.length<3)return!1;let s=t.parts[2];return s.type!=="Literal"?!1:s.value.startsWith("]=")||s.value.startsWith("]+=")}',
      replace: 'if(t.parts.length<3)return!1;let s=t.parts[2];if(s.type==="Escaped"&&s.value==="]"&&t.parts[3]?.type==="Literal"&&/^\\+?=/.test(t.parts[3].value))return!0;return s.type!=="Literal"?!1:s.value.startsWith("]=")||s.value.startsWith("]+=")}',
    },
    {
      find: 'if(e.parts.length<3)return null;let f=e.parts[2];if(f.type!=="Literal"||!f.value.startsWith("]=")&&!f.value.startsWith("]+="))return null;',
      replace: 'if(e.parts.length<3)return null;var __kw=n.type==="DoubleQuoted"&&n.parts.some(d=>d.type!=="Literal"&&d.type!=="Escaped")?{type:"Word",parts:[n]}:void 0;let f=e.parts[2],__i=2;f.type==="Escaped"&&f.value==="]"&&e.parts[3]?.type==="Literal"&&(f={type:"Literal",value:"]"+e.parts[3].value},__i=3);if(f.type!=="Literal"||!f.value.startsWith("]=")&&!f.value.startsWith("]+="))return null;',
    },
    {
      find: 'for(let d of n.parts)(d.type==="Literal"||d.type==="Escaped")&&(r+=d.value)}s=f,i=2}',
      replace: 'for(let d of n.parts)(d.type==="Literal"||d.type==="Escaped")&&(r+=d.value)}s=f,i=__i}',
    },
    { find: 'return{key:r,valueParts:l,append:a}}', replace: 'return{key:r,valueParts:l,append:a,keyWord:__kw}}' },
    {
      // A double-quoted key with expansions in it (`["$k"]=v`) is expanded.
      find: 'let c=ri(l);if(c){let{key:u,valueParts:f,append:d}=c,p;',
      replace: 'let c=ri(l);if(c){let{key:u,valueParts:f,append:d}=c,p;c.keyWord&&(u=await se(e,c.keyWord));',
    },
    {
      // Any other `[…]=value` whose key holds expansions (`[$i+1]=y`, `[${k}x]=z`, `[a$k]=w`): the key is the
      // parts up to the `]` before `=`, expanded.
      find: 'function ri(e){if(e.parts.length<2)return null;',
      replace: 'function __jbRiGen(e){let P=[];for(let k=0;k<e.parts.length;k++){let p=e.parts[k],q=e.parts[k+1];p.type==="Escaped"&&p.value==="]"&&q?.type==="Literal"&&/^\\+?=/.test(q.value)?(P.push({type:"Literal",value:"]"+q.value}),k++):P.push(p)}if(P.length<3||P[0].type!=="Glob"||P[0].pattern!=="[")return null;for(let j=1;j<P.length;j++){let p=P[j];if(p.type==="Glob")return null;if(p.type!=="Literal")continue;let m=/\\](\\+?=)/.exec(p.value);if(!m){if(p.value.includes("]"))return null;continue}let kp=P.slice(1,j),b=p.value.slice(0,m.index),a=p.value.slice(m.index+1+m[1].length),vp=[];b&&kp.push({type:"Literal",value:b});a&&vp.push({type:"Literal",value:a});for(let f=j+1;f<P.length;f++){let d=P[f];vp.push(d.type==="BraceExpansion"?{type:"Literal",value:rd(d)}:d)}return{key:kp.map(d=>d.type==="Literal"||d.type==="Escaped"?d.value:"").join(""),valueParts:vp,append:m[1]==="+=",keyWord:{type:"Word",parts:kp}}}return null}function ri(e){return __jbRi0(e)??__jbRiGen(e)}function __jbRi0(e){if(e.parts.length<2)return null;',
    },
    { find: 'function um(e){return e.some(t=>{', replace: 'function um(e){return e.some(t=>__jbRiGen(t)!==null)||e.some(t=>{' },
    {
      find: 'let{key:u,valueParts:f,append:d}=c,p;f.length>0?(p=await se(e,{type:"Word",parts:f}),f.every(m=>m.type==="Literal"||m.type==="TildeExpansion")&&(p=Qt(e,p))):p="",i.push({type:"keyed",indexExpr:u',
      replace: 'let{key:u,valueParts:f,append:d}=c,p;c.keyWord&&(u=await se(e,c.keyWord));f.length>0?(p=await se(e,{type:"Word",parts:f}),f.every(m=>m.type==="Literal"||m.type==="TildeExpansion")&&(p=Qt(e,p))):p="",i.push({type:"keyed",indexExpr:u',
    },
  ],
};
