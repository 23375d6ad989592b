// A base constant whose digits come from an expansion, `10#$v` or `10#${a[i]:-0}`, reads the expanded text as the
// digits: bash expands `$` words inside arithmetic before it evaluates (bash(1) "ARITHMETIC EVALUATION", "Constants
// ... take the form [base#]n"), so `(( 10#$x ))` with x=08 is 8, the usual way to read a zero-padded number. just-bash
// stopped the constant at the `$`, left `10#` without digits and failed with "value too great for base".
export default {
  title: 'a base constant takes its digits from `$v` / `${...}`',
  upstream: 'src/parser/arithmetic-primaries.ts parseNumber: at `#` followed by `$`, read the parameter (and any literal digits after it) into an ArithBaseValue node; src/interpreter/arithmetic.ts evaluates it as base#(expanded text)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(u)if(/[0-9a-zA-Z@_]/.test(p))c+=p,s++;else break;else if(p==="#")u=!0,c+=p,s++;',
      replace: 'if(u)if(/[0-9a-zA-Z@_]/.test(p))c+=p,s++;else break;else if(p==="#"&&t[s+1]==="$"&&/^\\d+$/.test(c)){let q=s+2,k;if(t[q]==="{"){let v=1,w=q+1;for(;w<t.length&&v>0;)t[w]==="{"?v++:t[w]==="}"&&v--,v>0&&w++;k=t.slice(q+1,w),q=w+1}else{let m=/^([A-Za-z_]\\w*|[0-9#?$!@*-])/.exec(t.slice(q));if(!m)break;k=m[1],q+=k.length}let x=q;for(;x<t.length&&/[0-9a-zA-Z@_]/.test(t[x]);)x++;return{expr:{type:"ArithBaseValue",base:c,content:k,suffix:t.slice(q,x)},pos:x}}else if(p==="#")u=!0,c+=p,s++;',
    },
    {
      find: 'case"ArithDynamicBase":{let i=await us(e,t.baseExpr)',
      replace: 'case"ArithBaseValue":{let i=(await us(e,t.content))+t.suffix,o=`${t.base}#${i}`;if(!/^[0-9a-zA-Z@_]+$/.test(i))throw new ce(`${t.base}#: invalid integer constant (error token is "${t.base}#")`);let a=or(o);if(Number.isNaN(a))throw new ce(`${o}: value too great for base (error token is "${o}")`);return a}case"ArithDynamicBase":{let i=await us(e,t.baseExpr)',
    },
    {
      find: 'case"ArithDynamicBase":return`\\${${e.baseExpr}}#${e.value}`;',
      replace: 'case"ArithBaseValue":return`${e.base}#\\${${e.content}}${e.suffix}`;case"ArithDynamicBase":return`\\${${e.baseExpr}}#${e.value}`;',
    },
  ],
};
