// With `patsub_replacement` (on by default in bash 5.2), an unquoted `&` in the replacement of `${var/pattern/string}`
// stands for the matched text: `${s/b/[&]}` on `abc` is `a[b]c`; a quoted `"&"`, `'&'` or `\&` stays `&`. Bash's
// manual, "Shell Parameter Expansion". just-bash kept every `&` literal, and on arrays (`"${a[@]/b/$r}"`) let a `$&`
// in the replacement act as JavaScript's own replacement pattern.
export default {
  title: 'patsub_replacement: an unquoted & in a ${var/pattern/string} replacement is the matched text',
  upstream: 'src/interpreter/expansion/pattern-replacement.ts: expand the replacement part by part, marking the & of unquoted parts, and substitute the match for them (when shopt patsub_replacement); replace through a function, never a replacement string',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let a=n.replacement?await r(e,n.replacement.parts):"";',
      replace: 'let a=n.replacement?await spzPatsub(e,n.replacement.parts,r):"";',
    },
    {
      // The replacement: a string, or a function of the match when an unquoted & is in it.
      find: 'function es(e,t,n,r,s){',
      replace: 'async function spzPatsub(e,t,r){if(e.state.shoptOptions.patsub_replacement===!1)return r(e,t);let q=[],sp=!1;for(let p of t){let v=await r(e,[p]),u=p.type!=="SingleQuoted"&&p.type!=="DoubleQuoted"&&p.type!=="Escaped";u&&v.includes("&")&&(sp=!0),q.push([v,u])}return sp?m=>q.map(([v,u])=>u?v.replace(/&/g,()=>m):v).join(""):q.map(([v])=>v).join("")}function es(e,t,n,r,s){',
    },
    { find: '(i.append(t.slice(o,a.index)),i.append(r),', replace: '(i.append(t.slice(o,a.index)),i.append(typeof r=="function"?r(a[0]):r),' },
    { find: 'let p=c.replacement?await n(e,c.replacement.parts):""', replace: 'let p=c.replacement?await spzPatsub(e,c.replacement.parts,n):""' },
    { find: 'for(let b of f)m.push(w.replace(b,p))', replace: 'for(let b of f)m.push(w.replace(b,typeof p=="function"?p:()=>p))' },
    // The positional parameters ("${@/b/&}", ${@/b/&}) and an array inside a longer word: the same replacement.
    {
      find: 'let p=l.replacement?await r(e,l.replacement.parts):"",h=d;',
      replace: 'let pf=l.replacement?await spzPatsub(e,l.replacement.parts,r):"",p=typeof pf=="function"?pf("&"):pf,h=d;',
    },
    { find: 'zi(m,g.replace(y,p),w,e)', replace: 'zi(m,g.replace(y,typeof pf=="function"?pf:()=>p),w,e)' },
    { find: 'let b=m.replacement?await s(e,m.replacement.parts):""', replace: 'let b=m.replacement?await spzPatsub(e,m.replacement.parts,s):"",bf=typeof b=="function"?b:()=>b' },
    { find: 'p=p.map(S=>y.replace(S,b))', replace: 'p=p.map(S=>y.replace(S,bf))' },
    { find: 'let d=l.replacement?await n(e,l.replacement.parts):""', replace: 'let d=l.replacement?await spzPatsub(e,l.replacement.parts,n):""' },
  ],
};
