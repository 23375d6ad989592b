// jq's arithmetic refuses operands it has no rule for, with both values dumped and cut to 14 characters and status 5:
// `array ([1]) and number (1) cannot be added`, `… cannot be subtracted`, `… multiplied`, `… divided`,
// `… divided (remainder)` (src/builtin.c, f_plus/f_minus/f_multiply/f_divide/f_mod, type_error2). `+` takes null on
// either side, numbers, strings, arrays and objects; `-` numbers and arrays; `*` numbers, a string and a number in
// either order, objects; `/` numbers and strings; `%` numbers. just-bash answered null for every other pair, so
// `.count + 1` on a wrong shape printed null and exited 0.
export default {
  title: 'jq arithmetic on operands it has no rule for is jq\'s "cannot be added/subtracted/…" error',
  upstream: 'src/commands/query-engine (evaluate, binary operators): throw `${type} (${dump}) and ${type} (${dump}) cannot be …` where jq has no rule, and repeat a string for number * string',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'function ot(e,n,t,r,s){',
      replace:
        'function __jqOperandText(v){let T=v===null?"null":Array.isArray(v)?"array":typeof v,V=JSON.stringify(v)??"null";return`${T} (${V.length>14?V.slice(0,11)+"...":V})`}' +
        'function __jqOperandError(f,i,w){return new Error(`${__jqOperandText(f)} and ${__jqOperandText(i)} cannot be ${w}`)}' +
        'function ot(e,n,t,r,s){',
    },
    {
      find: '!Array.isArray(f)&&!Array.isArray(i)?ce(f,i):null;case"-":',
      replace: '!Array.isArray(f)&&!Array.isArray(i)?ce(f,i):(()=>{throw __jqOperandError(f,i,"added")})();case"-":',
    },
    {
      find: 'if(typeof f=="string"&&typeof i=="string"){let c=h=>h.length>10?`"${h.slice(0,10)}...`:JSON.stringify(h);throw new Error(`string (${c(f)}) and string (${c(i)}) cannot be subtracted`)}return null;case"*":if(typeof f=="number"&&typeof i=="number")return f*i;',
      replace: 'throw __jqOperandError(f,i,"subtracted");case"*":if(typeof f=="number"&&typeof i=="number")return f*i;if(typeof f=="number"&&typeof i=="string")[f,i]=[i,f];',
    },
    {
      find: 'if(c&&h)return xe(c,h,{maxDepth:s.limits.maxDepth,visit:()=>R(s)})}return null;case"/":',
      replace: 'if(c&&h)return xe(c,h,{maxDepth:s.limits.maxDepth,visit:()=>R(s)})}throw __jqOperandError(f,i,"multiplied");case"/":',
    },
    {
      find: 'return typeof f=="string"&&typeof i=="string"?f.split(i):null;case"%":',
      replace: 'if(typeof f=="string"&&typeof i=="string")return f.split(i);throw __jqOperandError(f,i,"divided");case"%":',
    },
    {
      find: 'f<0&&i>0?-1:0:f%i}return null;case"==":',
      replace: 'f<0&&i>0?-1:0:f%i}throw __jqOperandError(f,i,"divided (remainder)");case"==":',
    },
  ],
};
