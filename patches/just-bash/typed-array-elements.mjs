// bash's manual, "Bash Builtins" (declare): -i "the variable is treated as an integer; arithmetic evaluation … is
// performed when the variable is assigned a value"; -l and -u convert "all upper-case characters … to lower-case"
// (or the reverse) "when the variable is assigned a value"; "Using '+' instead of '-' turns off the attribute
// instead". An array's elements are its values: they are evaluated or converted when assigned by `a+=(…)`, `a=(…)`
// after the declaration, `local -ia a=(…)`, `a[i]=v`, `a[i]+=v` and `m[k]=v`, as by `declare -ia a=(…)`. just-bash applied the
// attributes only in `declare` itself (`declare -ia a=(1+1); a+=(4+4)` gave `2 4+4`, `declare -iA m; m[x]=2+3`
// gave `2+3`, `declare -u a=(x); a+=(y)` gave `X y`), and ignored `+i` (and refused `+l`, `+u`).
export default {
  title: 'integer and case attributes apply to array elements assigned after the declaration; declare +i, +l, +u remove them',
  upstream:
    'src/interpreter/assignment (array literal and element assignment): pass each assigned element through the integer evaluation and case conversion, as declare does; src/interpreter/builtins/declare.ts: +i, +l and +u remove the attributes',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // a=(…), a+=(…), m=([k]=v …): the elements this assignment wrote (for +=, those that changed or are new).
      find: 'try{a&&d?await fm(e,t,n,r,s,p,h=>{o+=h}):d?await dm(e,n,r,s,p):await pm(e,n,r,s,p)}catch(h){throw f(),h}',
      replace:
        'let _ty=Er(e,n)||zh(e,n)||Uh(e,n),_keys=()=>e.state.associativeArrays?.has(n)?Et(e,n):ve(e,n),_was=new Map(_ty&&s?_keys().map(k=>[k,le(e,n,k)]):[]);try{a&&d?await fm(e,t,n,r,s,p,h=>{o+=h}):d?await dm(e,n,r,s,p):await pm(e,n,r,s,p);if(_ty){let _as=e.state.associativeArrays?.has(n);for(let k of _keys()){let v=le(e,n,k)??"";if(_was.get(k)===v)continue;Er(e,n)&&(v=await __jbIntEval(e,v,v,""));v=jn(e,n,v);_as?Z(e,n,k,v,"associative"):Z(e,n,k,v)}}}catch(h){throw f(),h}',
    },
    {
      // a[i]=v, a[i]+=v (an integer element adds), m[k]=v.
      find: 'let u=i?Bs(e,le(e,a,c)||"",s):s;return t.name||Z(e,a,c,u,l?"associative":"indexed")',
      replace: 'let u=Er(e,a)?await __jbIntEval(e,i?`(${le(e,a,c)||"0"}) + (${/\\S/.test(s)?s:"0"})`:s,s,""):i?Bs(e,le(e,a,c)||"",s):s;u=jn(e,a,u);return t.name||Z(e,a,c,u,l?"associative":"indexed")',
    },
    {
      find: 'w=!1,b=!1,g=[];for(let P=0;P<t.length;P++){let $=t[P];if($==="-a")r=!0;',
      replace: 'w=!1,b=!1,g=[],_off=new Set;for(let P=0;P<t.length;P++){let $=t[P];if($==="-a")r=!0;',
    },
    {
      find: 'else if(R!=="r"){if(R!=="i"){if(!(R==="f"||R==="F"))return L("",',
      replace: 'else if(R==="i"||R==="l"||R==="u")_off.add(R);else if(R!=="r"){if(R!=="i"){if(!(R==="f"||R==="F"))return L("",',
    },
    {
      // Removed before the names' values are assigned (declare +i n=2+3 stores 2+3).
      find: 'let S=e.state.localScopes.length>0&&!b,v=P=>{',
      replace: 'if(_off.size)for(let P of g){let O=/^[a-zA-Z_][a-zA-Z0-9_]*/.exec(P)?.[0];O&&(_off.has("i")&&e.state.integerVars?.delete(O),_off.has("l")&&e.state.lowercaseVars?.delete(O),_off.has("u")&&e.state.uppercaseVars?.delete(O))}let S=e.state.localScopes.length>0&&!b,v=P=>{',
    },
    {
      // local -ia a=(…), local -ua a=(…): the elements, as declare does.
      find: 'x.includes("x")&&mt(e,n);x.includes("r")&&Ze(e,n)}return r}',
      replace: 'if(arr&&/[ilu]/.test(x)&&/^[a-zA-Z_][a-zA-Z0-9_]*=\\(/.test(d)){let _as=e.state.associativeArrays?.has(n);for(let k of _as?Et(e,n):ve(e,n)){let v=le(e,n,k)??"";x.includes("i")&&(v=await Fu(e,v));v=jn(e,n,v);_as?Z(e,n,k,v,"associative"):Z(e,n,k,v)}}x.includes("x")&&mt(e,n);x.includes("r")&&Ze(e,n)}return r}',
    },
  ],
};
