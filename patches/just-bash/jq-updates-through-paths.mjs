// jq's assignments work on the paths of their left side, whatever filter makes them (the manual's "Assignment";
// src/builtin.jq, _modify/_assign): `lhs |= f` replaces the value at each path of `path(lhs)` by f's first output,
// or deletes the path when f is empty (so `[1,2,3] | .[] |= empty` is [2], jq 1.6's own quirk); `lhs = rhs` sets
// every path to each value of rhs (one output per value); `lhs op= rhs` is `rhs as $x | lhs |= . op $x`, with op's
// own errors (`string ("x") and number (1) cannot be added`). So `(.items[] | select(.n == 1) | .v) |= 9`,
// `(.. | numbers) |= . + 1` and `(.a, .b) = 0` change those places in the input. just-bash walked the left side's
// shape without running its filters, so `(.a[] | select(…) | .v) |= 9` printed 9, and `.a += 1` on a string gave 1.
// A left side with a slice keeps the shape walk (jq's slice paths are objects), with op's errors.
export default {
  title: 'jq assignments update every path of their left side (select, .., commas), with the operators\' errors',
  upstream: 'src/commands/query-engine (evaluate, UpdateOp): compute path(lhs), then reduce over the paths with getpath/setpath (delpaths for an empty |=); `op=` through the binary operator',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'case"UpdateOp":return[it(e,n.path,n.op,n.value,t)];',
      replace: 'case"UpdateOp":return __jqUpdate(e,n.path,n.op,n.value,t);',
    },
    {
      // The shape walk's `op=`: the binary operator itself, errors and all.
      find: 'case"+=":return typeof f=="number"&&typeof i=="number"||typeof f=="string"&&typeof i=="string"?f+i:Array.isArray(f)&&Array.isArray(i)?(D(s,f.length,i.length),[...f,...i]):f&&i&&typeof f=="object"&&typeof i=="object"?ce(f,i):i;case"-=":return typeof f=="number"&&typeof i=="number"?f-i:f;case"*=":return typeof f=="number"&&typeof i=="number"?f*i:f;case"/=":return typeof f=="number"&&typeof i=="number"?f/i:f;case"%=":return typeof f=="number"&&typeof i=="number"?f%i:f;',
      replace: 'case"+=":case"-=":case"*=":case"/=":case"%=":return ot(null,t.slice(0,-1),{type:"Literal",value:f},{type:"Literal",value:i},s)[0];',
    },
    {
      // The paths of `(f)` are f's.
      find: 'D(t,s.length),s.push(f)};if(n.type==="Comma"){',
      replace: 'D(t,s.length),s.push(f)};if(n.type==="Paren"){ne(e,n.expr,t,r,s);return}if(n.type==="Comma"){',
    },
    {
      // path(.[]) over a scalar or null fails as .[] does.
      find: 'else if(e&&typeof e=="object")for(let f of Object.keys(e))R(t),o([...r,f]);return}if(n.type==="Recurse"){',
      replace: 'else if(e&&typeof e=="object")for(let f of Object.keys(e))R(t),o([...r,f]);else throw new Error(`Cannot iterate over ${__jqOperandText(e)}`);return}if(n.type==="Recurse"){',
    },
    {
      find: 'function ot(e,n,t,r,s){',
      replace:
        // The value at a path (null below a null; a step through a scalar is the index error).
        'function __jqGetPath(v,p){for(let k of p){if(v===null)return null;if(typeof k=="number"&&Array.isArray(v))v=v[k<0?v.length+k:k]??null;else if(typeof k=="string"&&S(v))v=Object.hasOwn(S(v),k)?S(v)[k]:null;else jqCannotIndex(v,k)}return v}' +
        // A path with its negative indices counted from the end of the arrays they index.
        'function __jqAbsPath(v,p){return p.map(k=>{let x=typeof k=="number"&&k<0&&Array.isArray(v)?v.length+k:k;v=v===null?null:Array.isArray(v)?v[x]??null:S(v)?S(v)[x]??null:null;return x})}' +
        'function __jqHasSlice(n){return!!n&&typeof n=="object"&&(n.type==="Slice"||Object.values(n).some(x=>x&&typeof x=="object"&&__jqHasSlice(x)))}' +
        // lhs |= f, lhs = rhs, lhs op= rhs, lhs //= rhs over path(lhs).
        'function __jqUpdate(e,pathNode,op,rhsNode,s){if(__jqHasSlice(pathNode))return[it(e,pathNode,op,rhsNode,s)];let paths=[];ne(e,pathNode,s,[],paths);' +
        'let apply=f=>paths.reduce((v,p)=>{let cur=__jqGetPath(v,p),out=f(cur);if(out===void 0)return re(v,__jqAbsPath(v,p));return te(v,__jqAbsPath(v,p),out)},e);' +
        'if(op==="|=")return[apply(cur=>{let o=d(cur,rhsNode,s);return o.length?o[0]:void 0})];' +
        'return M(s,d(e,rhsNode,s),x=>[apply(cur=>op==="="?x:op==="//="?cur===null||cur===!1?x:cur:ot(null,op.slice(0,-1),{type:"Literal",value:cur},{type:"Literal",value:x},s)[0])])}' +
        'function ot(e,n,t,r,s){',
    },
  ],
};
