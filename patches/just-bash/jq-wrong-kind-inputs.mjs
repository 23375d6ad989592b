// jq's builtins refuse an input of a kind they have no rule for, and say so with status 5; just-bash answered null,
// false or [] instead, so `keys` of a number, `length` of a boolean, `sort` of null, `test("x")` of a number or
// `.[0]` of an object printed a plausible value and exited 0.
//
// The rule sits in one place, at the entry of the builtin call: a table of which kinds each builtin takes and the
// message jq 1.6 gives for the others. The builtins written in C (src/builtin.c) check their input's kind and fail
// with the value dumped and cut to 14 characters: `number (1) has no keys`, `boolean (true) has no length`,
// `string ("a") cannot be sorted, as it is not an array`, `null (null) cannot be matched, as it is not a string`,
// `… number required`, `… only strings can be parsed`. The ones written in jq (src/builtin.jq) fail through what
// they call: `map`, `add`, `any`, `all`, `flatten`, `join`, `sort_by`, … iterate with `.[]` (`Cannot iterate over
// number (1)`), `first`/`last`/`nth` index with a number (`Cannot index string with number`), `ascii_downcase`
// explodes (`explode input must be a string`). Those whose answer for a right-kind input also follows from their
// jq definition (an object's `add`, `map`, `any`, `flatten`, `join`; an array's `to_entries`; `reverse`,
// `from_entries`, `with_entries`, `transpose`, `in`, `inside`, `indices`, `index`, `rindex`) are evaluated from a
// definition of the same meaning,
// so their errors are the ones jq's own steps raise. `.[k]` with a key the value has no rule for, a slice of a
// value that is not a string or array, `getpath` through a scalar, `del` of a path through a scalar, `has` with the
// wrong kind of key, `contains` of two kinds, negation of a non-number and `@sh` of an object are the same errors
// (src/jv_aux.c, jv_get/jv_has/jv_getpath; src/builtin.c, f_contains/f_negate/f_format); `leaf_paths` is
// `paths(scalars)`, which leaves out null and false leaves and the input itself. A destructuring pattern indexes
// as `.[0]`/`.["a"]` do (null binds nulls), and the date builtins say what input they need (`gmtime() requires
// numeric inputs`, `strftime/1 requires parsed datetime inputs`, `mktime requires array inputs`).
export default {
  title: 'jq builtins on an input of a kind they have no rule for fail as jq 1.6 does, status 5',
  upstream:
    'src/commands/query-engine (builtin dispatch): check the input kind per builtin before dispatching, and evaluate the jq-defined builtins (map, add, any, all, flatten, join, to_entries, from_entries, with_entries, reverse, transpose, in, inside) from their jq definitions; Index/getpath/del/has/contains: throw jq\'s "Cannot index …"/"Cannot check whether …"/"cannot have their containment checked"',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'function Je(e,n,t,r){let s=et.get(n);',
      replace:
        // Kind names and the one-letter codes the table uses: null, boolean, Number, string, array, object.
        'function __jqKind(v){return v===null?"null":Array.isArray(v)?"array":typeof v}' +
        'function __jqKindCode(v){return v===null?"n":Array.isArray(v)?"a":typeof v=="object"?"o":typeof v=="boolean"?"b":typeof v=="number"?"N":"s"}' +
        'var __jqKindRules=(()=>{let m=new Map(),add=(names,kinds,msg)=>{for(let k of names.split(" "))m.set(k,[kinds,msg])},dumped=w=>v=>`${__jqOperandText(v)} ${w}`;' +
        'add("keys/0 keys_unsorted/0 to_entries/0 with_entries/1","ao",dumped("has no keys"));' +
        'add("length/0","nNsao",dumped("has no length"));' +
        'add("utf8bytelength/0","s",dumped("only strings have UTF-8 byte length"));' +
        'add("tonumber/0","Ns",dumped("cannot be parsed as a number"));' +
        'add("fromjson/0","s",dumped("only strings can be parsed"));' +
        'add("sort/0","a",dumped("cannot be sorted, as it is not an array"));' +
        'add("min/0 max/0","a",v=>`${__jqOperandText(v)} and ${__jqOperandText(v)} cannot be iterated over`);' +
        'add("test/1 test/2 match/1 match/2 capture/1 capture/2 scan/1 scan/2 sub/2 sub/3 gsub/2 gsub/3 splits/1 splits/2 split/2","s",dumped("cannot be matched, as it is not a string"));' +
        'add("explode/0 ascii_downcase/0 ascii_upcase/0","s",()=>"explode input must be a string");' +
        'add("implode/0","a",()=>"implode input must be an array");' +
        'add("startswith/1","s",()=>"startswith() requires string inputs");' +
        'add("endswith/1","s",()=>"endswith() requires string inputs");' +
        'add("split/1","s",()=>"split input and separator must be strings");' +
        'add("first/0 last/0 nth/1","na",v=>`Cannot index ${__jqKind(v)} with number`);' +
        'add("add/0 any/0 all/0 any/1 all/1 flatten/0 flatten/1 join/1 map/1 map_values/1 from_entries/0 sort_by/1 group_by/1 unique/0 unique_by/1 min_by/1 max_by/1 transpose/0","ao",v=>`Cannot iterate over ${__jqOperandText(v)}`);' +
        'add("@csv/0","a",dumped("cannot be csv-formatted, only array"));' +
        'add("gmtime/0","N",()=>"gmtime() requires numeric inputs");' +
        'add("todate/0 todateiso8601/0 strftime/1","Na",()=>"strftime/1 requires parsed datetime inputs");' +
        'add("mktime/0","a",()=>"mktime requires array inputs");' +
        'add("fromdate/0 fromdateiso8601/0 strptime/1","s",()=>"strptime/1 requires string inputs and arguments");' +
        'add("@tsv/0","a",dumped("cannot be tsv-formatted, only array"));' +
        'add("floor/0 ceil/0 round/0 sqrt/0 log/0 log10/0 log2/0 exp/0 exp2/0 exp10/0 pow10/0 sin/0 cos/0 tan/0 asin/0 acos/0 atan/0 sinh/0 cosh/0 tanh/0 asinh/0 acosh/0 atanh/0 cbrt/0 expm1/0 log1p/0 trunc/0 fabs/0 nearbyint/0 rint/0 logb/0 significand/0 frexp/0 modf/0 gamma/0 lgamma/0 tgamma/0 lgamma_r/0 j0/0 j1/0 y0/0 y1/0 erf/0 erfc/0","N",dumped("number required"));' +
        'return m})();' +
        // The jq-defined builtins whose answers and errors follow from their definitions. A filter parameter (named
        // apart from every other, as the calls nest) is a closure over the caller's functions; a `$__…` parameter is
        // bound to each value of its argument.
        'var __jqDefSources=new Map([' +
        '["map/1",["__jq_map_f","[.[] | __jq_map_f]"]],' +
        '["add/0",["","reduce .[] as $__v (null; . + $__v)"]],' +
        '["any/0",["","reduce .[] as $__v (false; . or $__v)"]],' +
        '["all/0",["","reduce .[] as $__v (true; . and $__v)"]],' +
        '["any/1",["__jq_any_f","reduce (.[] | __jq_any_f) as $__v (false; . or $__v)"]],' +
        '["all/1",["__jq_all_f","reduce (.[] | __jq_all_f) as $__v (true; . and $__v)"]],' +
        '["flatten/0",["","reduce .[] as $__v ([]; if ($__v | type) == \\"array\\" then . + ($__v | flatten) else . + [$__v] end)"]],' +
        '["flatten/1",["$__d","if $__d < 0 then error(\\"flatten depth must not be negative\\") else reduce .[] as $__v ([]; if ($__v | type) == \\"array\\" and $__d != 0 then . + ($__v | flatten($__d - 1)) else . + [$__v] end) end"]],' +
        '["join/1",["$__s","reduce .[] as $__v (null; (if . == null then \\"\\" else . + $__s end) + ($__v | if . == null then \\"\\" elif type == \\"boolean\\" or type == \\"number\\" then tojson else . end)) // \\"\\""]],' +
        '["to_entries/0",["","[keys_unsorted[] as $__k | {key: $__k, value: .[$__k]}]"]],' +
        '["from_entries/0",["","map({(.key // .Key // .name // .Name): (if has(\\"value\\") then .value else .Value end)}) | add + {} // {}"]],' +
        '["with_entries/1",["__jq_with_entries_f","to_entries | map(__jq_with_entries_f) | from_entries"]],' +
        '["reverse/0",["","[.[length - 1 - range(0; length)]]"]],' +
        '["transpose/0",["","if . == [] then [] else . as $__in | (map(length) | max) as $__n | [range(0; $__n) as $__j | [range(0; $__in | length) as $__i | $__in[$__i] | .[$__j]]] end"]],' +
        '["in/1",["__jq_in_f",". as $__x | __jq_in_f | has($__x)"]],' +
        '["inside/1",["__jq_inside_f",". as $__x | __jq_inside_f | contains($__x)"]],' +
        '["indices/1",["$__i","if type == \\"array\\" and ($__i | type) == \\"array\\" then .[$__i] elif type == \\"array\\" then .[[$__i]] elif type == \\"string\\" and ($__i | type) == \\"string\\" then _strindices($__i) else .[$__i] end"]],' +
        '["index/1",["$__i","indices($__i) | .[0]"]],' +
        '["rindex/1",["$__i","indices($__i) | .[-1:][0]"]]' +
        ']),__jqDefs=new Map();' +
        // Runs a jq-defined builtin: its filter parameter becomes a function closed over the caller's functions, its
        // `$` parameter is bound to each value of the argument in turn (jq's `def f($a)` is `def f(a): a as $a | …`).
        'function __jqRunDef(e,key,t,r){let [param,src]=__jqDefSources.get(key),ast=__jqDefs.get(key);ast||(ast=pr(src),__jqDefs.set(key,ast));' +
        'if(param==="")return d(e,ast,r);if(param.startsWith("$")){let out=[];for(let v of d(e,t[0],r))q(r,out,d(e,ast,se(r,param,v)));return out}' +
        'let funcs=new Map(r.funcs??[]);funcs.set(`${param}/0`,{params:[],body:t[0],closure:new Map(r.funcs??[]),vars:r.vars});return d(e,ast,{...r,funcs})}' +
        // The builtin's input-kind rule (and, for an object, the sort/min/max of its values that jq refuses).
        'function __jqCheckInput(e,n,t,r){let key=`${n}/${t.length}`,rule=__jqKindRules.get(key);if(rule&&!rule[0].includes(__jqKindCode(e)))throw new Error(rule[1](e));' +
        'if(Array.isArray(e)&&/^(mktime\\/0|strftime\\/1|todate\\/0|todateiso8601\\/0)$/.test(key)&&!e.every(x=>typeof x=="number"))throw new Error(`${n==="mktime"?"mktime":"strftime/1"} requires parsed datetime inputs`);' +
        'if(__jqKindCode(e)==="o"&&/^(sort_by|group_by|unique_by|min_by|max_by)\\/1$|^unique\\/0$/.test(key)){let keys=Object.values(e).map(x=>t[0]?d(x,t[0],r):[x]);' +
        'throw new Error(`${__jqOperandText(e)} and ${__jqOperandText(keys)} ${n.startsWith("m")?"cannot be iterated over":"cannot be sorted, as they are not both arrays"}`)}}' +
        // (jq 1.6 itself never returns from an empty needle's search; here it finds nothing.)
        'function Je(e,n,t,r){if(n==="_strindices")return d(e,t[0],r).some(x=>x==="")?[null]:me(e,"indices",t,r,d,J);if(!r.funcs?.has(`${n}/${t.length}`)){__jqCheckInput(e,n,t,r);if(__jqDefSources.has(`${n}/${t.length}`))return __jqRunDef(e,`${n}/${t.length}`,t,r)}let s=et.get(n);',
    },
    {
      // `.[k]`: null gives null; an object takes a string, an array a number (above) or an array (its indices);
      // anything else is `Cannot index <kind> with "<key>"` / `Cannot index <kind> with <kind>`.
      find: 'if(typeof p=="string"){let u=S(s);return!u||!Object.hasOwn(u,p)?[null]:[u[p]]}return[null]})})}case"Slice":',
      replace:
        'if(s===null)return[null];if(typeof p=="string"&&S(s)){let u=S(s);return Object.hasOwn(u,p)?[u[p]]:[null]}' +
        'if(Array.isArray(s)&&Array.isArray(p)){let u=[];for(let i=0;p.length&&i+p.length<=s.length;i++)p.every((x,j)=>J(s[i+j],x))&&u.push(i);return[u]}' +
        'throw new Error(typeof p=="string"?`Cannot index ${__jqKind(s)} with string "${p}"`:`Cannot index ${__jqKind(s)} with ${__jqKind(p)}`)})})}case"Slice":',
    },
    {
      // getpath: a missing key or index is null, and so is everything under a null; a step through any other value
      // is the index error.
      find: 'for(let m of l){if(y==null){y=null;break}if(Array.isArray(y)&&typeof m=="number")y=y[m];else if(typeof m=="string"){let b=S(y);if(!b||!Object.hasOwn(b,m)){y=null;break}y=b[m]}else{y=null;break}}h.push(y)',
      replace:
        'for(let m of l){if(y==null){y=null;break}if(Array.isArray(y)&&typeof m=="number")y=y[m<0?y.length+m:m]??null;else if(typeof m=="string"&&S(y)){let b=S(y);y=Object.hasOwn(b,m)?b[m]:null}else jqCannotIndex(y,m)}h.push(y)',
    },
    {
      // del(f): jq takes f's paths as path(f) does, which fails on a step through a scalar.
      find: 'case"del":{if(t.length===0)return[e];let c=[];i(e,t[0],r,[],c);',
      replace:
        'case"del":{if(t.length===0)return[e];let c=[];i(e,t[0],r,[],c);for(let l of c){let y=e;for(let m of l){if(y===null)break;if(Array.isArray(y)&&typeof m=="number")y=y[m<0?y.length+m:m]??null;else if(typeof m=="string"&&S(y))y=S(y)[m]??null;else if(m===null||typeof m!="object")jqCannotIndex(y,m);else break}}',
    },
    {
      // has(k): an object takes a string key, an array a number; null has nothing; the rest is refused.
      find: 'e&&typeof e=="object"&&typeof h=="string"?[Object.hasOwn(e,h)]:[!1]}case"in":',
      replace:
        'e&&typeof e=="object"&&!Array.isArray(e)&&typeof h=="string"?[Object.hasOwn(e,h)]:e===null?[!1]:(()=>{throw new Error(`Cannot check whether ${__jqKind(e)} has a ${__jqKind(h)} key`)})()}case"in":',
    },
    {
      // contains: both sides of one kind (true and false are two kinds to jq), else the containment error.
      find: 'case"contains":{if(t.length===0)return[!1];let c=s(e,t[0],r);return[f(e,c[0])]}',
      replace:
        'case"contains":{if(t.length===0)return[!1];let c=s(e,t[0],r),k=x=>x===!0?"t":x===!1?"f":__jqKindCode(x);if(k(e)!==k(c[0]))throw new Error(`${__jqOperandText(e)} and ${__jqOperandText(c[0])} cannot have their containment checked`);return[f(e,c[0])]}',
    },
    {
      // leaf_paths is paths(scalars): a scalar input has no path below it, so nothing; and select() drops the leaves
      // whose value is null or false, as scalars yields the value itself.
      find: 'case"leaf_paths":return Le(e,r,!0);',
      replace: 'case"leaf_paths":return Le(e,r,!0).filter(p=>{if(!p.length)return!1;let v=e;for(let k of p)v=v?.[k];return v!=null&&v!==!1});',
    },
    {
      // Negation takes numbers only: `string ("abcdefghij...) cannot be negated` for every other kind.
      find: 'if(typeof s=="string"){let o=p=>p.length>5?`"${p.slice(0,3)}...`:JSON.stringify(p);throw new Error(`string (${o(s)}) cannot be negated`)}return null}',
      replace: 'throw new Error(`${__jqOperandText(s)} cannot be negated`)}',
    },
    {
      // A slice is an index by an object ({start, end}) to jq: only null, strings and arrays take one.
      find: 'throw new Error(`Cannot slice ${typeof s} (${JSON.stringify(s)})`)',
      replace: 'throw new Error(`Cannot index ${__jqKind(s)} with object`)',
    },
    {
      find: 'throw new Error((Array.isArray(v)?"array":"object")+" ("+JSON.stringify(v)+") can not be escaped for shell")',
      replace: 'throw new Error(`${__jqOperandText(v)} can not be escaped for shell`)',
    },
    {
      // setpath through a value that is not a container of the key's kind (null makes one) is the index error.
      find: 'function te(e,n,t){if(n.length===0)return t;let[r,...s]=n;',
      replace: 'function te(e,n,t){if(n.length===0)return t;let[r,...s]=n;e!=null&&(typeof r=="number"?!Array.isArray(e):typeof r=="string"?!S(e):!1)&&jqCannotIndex(e,r);',
    },
    {
      // delpaths: a scalar has no fields to delete, an array no string element, an object no number field.
      find: 'function re(e,n){if(n.length===0)return null;',
      replace: 'function re(e,n){if(n.length===0)return null;if(e!=null&&typeof e!="object")throw new Error(`Cannot delete fields from ${__jqKind(e)}`);if(Array.isArray(e)&&typeof n[0]=="string")throw new Error("Cannot delete string element of array");if(S(e)&&typeof n[0]=="number")throw new Error("Cannot delete number field of object");',
    },
    {
      // `. as [$a]`: an array pattern indexes with numbers, so a value that is not an array or null is the index
      // error (null binds nulls); the next `?//` alternative is tried on an error.
      find: 'case"array":{if(!Array.isArray(t))return null;let r=e;for(let s=0;s<n.elements.length;s++){let o=n.elements[s],p=s<t.length?t[s]:null,',
      replace: 'case"array":{if(!Array.isArray(t)&&t!==null)jqCannotIndex(t,0);let r=e;for(let s=0;s<n.elements.length;s++){let o=n.elements[s],p=Array.isArray(t)&&s<t.length?t[s]:null,',
    },
    {
      // `. as {$a}`: an object pattern indexes with strings.
      find: 'case"object":{let r=S(t);if(!r)return null;let s=e;for(let o of n.fields){let p;if(typeof o.key=="string")p=o.key;else{let i=d(t,o.key,e);if(i.length===0)return null;p=String(i[0])}let u=_(r,p)?r[p]:null;',
      replace: 'case"object":{let r=S(t);let s=e;for(let o of n.fields){let p;if(typeof o.key=="string")p=o.key;else{let i=d(t,o.key,e);if(i.length===0)return null;p=String(i[0])}if(!r&&t!==null)jqCannotIndex(t,p);let u=r&&_(r,p)?r[p]:null;',
    },
    {
      find: 'for(let u of p)if(o=W(t,u,s),o!==null)break;',
      replace: 'for(let[x,u]of p.entries()){try{o=W(t,u,s)}catch(err){if(x===p.length-1)throw err;o=null}if(o!==null)break}',
    },
    {
      // gmtime keeps the fraction of a second (src/builtin.c, tm2jv with the seconds' fraction).
      find: 'c=o.getUTCMinutes(),h=o.getUTCSeconds(),',
      replace: 'c=o.getUTCMinutes(),h=o.getUTCSeconds()+(e-Math.floor(e)),',
    },
  ],
};
