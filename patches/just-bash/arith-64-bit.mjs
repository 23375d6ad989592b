// Shell arithmetic is done "in fixed-width integers with no check for overflow" (bash's manual, "Shell
// Arithmetic"): 64-bit two's complement, as bash's intmax_t. just-bash computed with JavaScript numbers: `<<`, `>>`,
// `&`, `|`, `^`, `~` were 32-bit (`1 << 40` gave 256, `$((1<<32))` 1), `**`, `+`, `*` grew past 2^63 instead of
// wrapping (`2**64` gave 18446744073709552000, not 0), and results past 2^53 were printed in floating-point form.
// Here those operations go through BigInt and wrap to 64 bits, and such results print as integers. Values past
// 2^53 stay exact by the later patch `wide-arithmetic`.
export default {
  title: 'shell arithmetic wraps at 64 bits: shifts, bitwise operators, ** and overflow',
  upstream: 'src/interpreter/arithmetic.ts applyBinaryOp/applyAssignmentOp/unary "~": compute shifts, &, |, ^, ~, ** and overflowing + - * / with BigInt.asIntN(64, …); print integer results with BigInt when past Number.MAX_SAFE_INTEGER',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // A decimal or hexadecimal literal past 2^53 wraps to 64 bits as in bash (0xffffffffffffffff is -1).
      find: 'let t=Number.parseInt(e,10);return t>Number.MAX_SAFE_INTEGER?Number.MAX_SAFE_INTEGER:t}',
      replace: 'let t=Number.parseInt(e,10);return t>Number.MAX_SAFE_INTEGER&&/^\\d+$/.test(e)?Number(BigInt.asIntN(64,BigInt(e))):t}',
    },
    {
      find: 'if(e.startsWith("0x")||e.startsWith("0X")){let n=Number.parseInt(e.slice(2),16);return n>Number.MAX_SAFE_INTEGER?Number.MAX_SAFE_INTEGER:n}',
      replace: 'if(e.startsWith("0x")||e.startsWith("0X")){let n=Number.parseInt(e.slice(2),16);return n>Number.MAX_SAFE_INTEGER&&/^[0-9a-f]+$/i.test(e.slice(2))?Number(BigInt.asIntN(64,BigInt(`0x${e.slice(2)}`))):n}',
    },
    {
      find: 'case"+":return e+t;case"-":return e-t;case"*":return e*t;case"/":if(t===0)throw new ce("division by 0");return Math.trunc(e/t);',
      replace: 'case"+":return _jbWrap(e+t,()=>BigInt(e)+BigInt(t));case"-":return _jbWrap(e-t,()=>BigInt(e)-BigInt(t));case"*":return _jbWrap(e*t,()=>BigInt(e)*BigInt(t));case"/":if(t===0)throw new ce("division by 0");return _jbWrap(Math.trunc(e/t),()=>BigInt(e)/BigInt(t));',
    },
    {
      find: 'case"**":if(t<0)throw new ce("exponent less than 0");return e**t;case"<<":return e<<t;case">>":return e>>t;',
      replace: 'case"**":{if(t<0)throw new ce("exponent less than 0");let v=e**t;if(Number.isSafeInteger(v))return v;let r=1n,b=BigInt.asUintN(64,BigInt(e)),x=BigInt(t);for(;x>0n;)x&1n&&(r=BigInt.asUintN(64,r*b)),b=BigInt.asUintN(64,b*b),x>>=1n;return Number(BigInt.asIntN(64,r))}case"<<":return Number(BigInt.asIntN(64,BigInt(e)<<BigInt(t&63)));case">>":return Number(BigInt.asIntN(64,BigInt(e))>>BigInt(t&63));',
    },
    {
      find: 'case"&":return e&t;case"|":return e|t;case"^":return e^t;case",":return t;default:return 0}}',
      replace: 'case"&":return Number(BigInt(e)&BigInt(t));case"|":return Number(BigInt(e)|BigInt(t));case"^":return Number(BigInt(e)^BigInt(t));case",":return t;default:return 0}}function _jbWrap(v,f){return Number.isSafeInteger(v)||!Number.isFinite(v)?v:Number(BigInt.asIntN(64,f()))}function _jbIntText(v){return Number.isInteger(v)&&!Number.isSafeInteger(v)?BigInt(v).toString():String(v)}',
    },
    {
      // The compound assignments are the binary operators.
      find: 'function Jc(e,t,n){switch(n){case"=":return t;',
      replace: 'function Jc(e,t,n){if(n!=="="&&n.endsWith("="))return Yp(e,t,n.slice(0,-1));switch(n){case"=":return t;',
    },
    { find: 'case"~":return~e;default:return e}}', replace: 'case"~":return Number(~BigInt(e));default:return e}}' },
    {
      find: 'f=Jc(c,u,t.operator);return a===void 0?e.state.env.set(o,String(f)):Z(e,i,a,String(f),',
      replace: 'f=Jc(c,u,t.operator);return a===void 0?e.state.env.set(o,_jbIntText(f)):Z(e,i,a,_jbIntText(f),',
    },
    { find: 'return String(await Y(e,l.expression,!0))}', replace: 'return _jbIntText(await Y(e,l.expression,!0))}' },
    { find: 'return String(await Y(e,t.expression.expression,!0))', replace: 'return _jbIntText(await Y(e,t.expression.expression,!0))' },
  ],
};
