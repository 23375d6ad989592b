// Case modification as bash's manual gives it ("Shell Parameter Expansion"): on an array or the positional parameters
// (`${a[@]^}`, `"${@,,}"`) it applies to each element in turn, each staying its own word; `^pattern`/`,pattern`
// converts the first character only when that character matches (`${x^l}` on `hello` is `hello`). just-bash
// converted the joined words as one string (`Apple banana`) and, with a pattern, the first matching character anywhere.
export default {
  title: 'case modification applies to each element of an array, and ^pattern only to the first character',
  upstream: 'src/interpreter/expansion/parameter-ops.ts applyCaseModification and array-word-expansion.ts: map the operation over the elements of name[@]/name[*]/@/* (a quoted [@] keeps one word per element), and stop after the first character when not "all"',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'for(let f of t)!n.all&&u?c+=f:a.test(f)?(c+=l(f),u=!0):c+=f;',
      replace: 'for(let f of t)!n.all&&u?c+=f:(u=!0,a.test(f)?c+=l(f):c+=f);',
    },
    {
      // The elements an operation applies to one by one: name[@], name[*] (a scalar is a one-element array), @ and *.
      find: 'async function Kl(',
      replace: 'function spzElementsOf(e,r){if(r==="@"||r==="*")return{vals:gc(e),star:r==="*"};let m=r.match(/^([a-zA-Z_][a-zA-Z0-9_]*)\\[([@*])\\]$/);if(!m)return null;let v=K(e,m[1]).map(([,w])=>w);if(v.length===0){let w=e.state.env.get(m[1]);w!==void 0&&v.push(w)}return{vals:v,star:m[2]==="*"}}async function spzCaseModArray(e,t,n,r){if(t.length!==1||t[0].type!=="DoubleQuoted")return null;let s=t[0].parts;if(s.length!==1||s[0].type!=="ParameterExpansion"||s[0].operation?.type!=="CaseModification")return null;let i=spzElementsOf(e,s[0].parameter);if(!i)return null;let o=[];for(let a of i.vals)o.push(await Kl(e,a,s[0].operation,n,r));return i.star?{values:[o.join(X(e.state.env))],quoted:!0}:{values:o,quoted:!0}}async function Kl(',
    },
    {
      find: 'case"CaseModification":{let d=await Kl(e,a,s,yt,as);',
      replace: 'case"CaseModification":{let cm=spzElementsOf(e,r),d=cm?(await Promise.all(cm.vals.map(v=>Kl(e,v,s,yt,as)))).join(cm.star?X(e.state.env):" "):await Kl(e,a,s,yt,as);',
    },
    {
      find: '{let o=await ic(e,t,i.expandWordPartsAsync',
      replace: '{let o=await spzCaseModArray(e,t,i.expandWordPartsAsync,i.expandPart);if(o!==null)return o}{let o=await ic(e,t,i.expandWordPartsAsync',
    },
  ],
};
