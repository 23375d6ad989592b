// jq's assignments (`=`, `|=`, `+=`, …) make the path they write: a missing or null container becomes an object for
// a key (`{} | .a.b = 1` is {"a":{"b":1}}, `null | .a = 1` is {"a":1}) or an array for an index (`.a[0].b = 2`
// on {} is {"a":[{"b":2}]}), and a missing value reads as null (`.a.b |= . + 1` on {} is {"a":{"b":1}}); a path
// through a value of another type is jq's error (`Cannot index number with string "b"`, `Cannot index object with
// number`, status 5), as jq's setpath does (src/jv_aux.c jv_set). just-bash left the input unchanged.
export default {
  title: 'jq assignments create the containers their path needs, and refuse a path through a scalar',
  upstream: 'src/commands/query-engine (applyUpdate): treat a null or missing container as {} for a key and [] for an index; throw jq\'s "Cannot index T with …" for any other type; read a missing value as null',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'function it(e,n,t,r,s){',
      replace:
        'function jqCannotIndex(v,k){let T=v===null?"null":Array.isArray(v)?"array":typeof v;throw new Error(typeof k=="number"?`Cannot index ${T} with number`:`Cannot index ${T} with string "${k}"`)}' +
        'function it(e,n,t,r,s){',
    },
    {
      find: 'if(i.base)return p(f,i.base,h=>{if(h&&typeof h=="object"&&!Array.isArray(h)){let a=C(h),l=Object.hasOwn(a,i.name)?a[i.name]:void 0;return E(a,i.name,c(l)),a}return h});if(f&&typeof f=="object"&&!Array.isArray(f)){let h=C(f),a=Object.hasOwn(h,i.name)?h[i.name]:void 0;return E(h,i.name,c(a)),h}return f}',
      replace:
        'if(i.base)return p(f,i.base,h=>{h==null&&(h=Object.create(null));if(h&&typeof h=="object"&&!Array.isArray(h)){let a=C(h),l=Object.hasOwn(a,i.name)?a[i.name]:void 0;return E(a,i.name,c(l)),a}return jqCannotIndex(h,i.name)});f==null&&(f=Object.create(null));if(f&&typeof f=="object"&&!Array.isArray(f)){let h=C(f),a=Object.hasOwn(h,i.name)?h[i.name]:void 0;return E(h,i.name,c(a)),h}return jqCannotIndex(f,i.name)}',
    },
    { find: 'i.base)return p(f,i.base,l=>{if(typeof a=="number"&&Array.isArray(l)){', replace: 'i.base)return p(f,i.base,l=>{l==null&&(l=typeof a=="number"?[]:typeof a=="string"?Object.create(null):l);if(typeof a=="number"&&Array.isArray(l)){' },
    { find: 'let y=C(l),m=Object.hasOwn(y,a)?y[a]:void 0;return E(y,a,c(m)),y}return l});', replace: 'let y=C(l),m=Object.hasOwn(y,a)?y[a]:void 0;return E(y,a,c(m)),y}return typeof a=="number"||typeof a=="string"?jqCannotIndex(l,a):l});' },
    { find: 'if(f==null){D(s,0,a+1);let y=new Array(a+1).fill(null);return y[a]=c(null),y}return f}if(typeof a=="string"&&f&&', replace: 'if(f==null){D(s,0,a+1);let y=new Array(a+1).fill(null);return y[a]=c(null),y}return jqCannotIndex(f,a)}typeof a=="string"&&f==null&&(f=Object.create(null));if(typeof a=="string"&&f&&' },
    { find: 'let l=C(f),y=Object.hasOwn(l,a)?l[a]:void 0;return E(l,a,c(y)),l}return f}case"Iterate":{let h=a=>', replace: 'let l=C(f),y=Object.hasOwn(l,a)?l[a]:void 0;return E(l,a,c(y)),l}return typeof a=="string"?jqCannotIndex(f,a):f}case"Iterate":{let h=a=>' },
    { find: 'return p(e,n,f=>{if(t==="|=")return o(f,f);', replace: 'return p(e,n,f=>{f===void 0&&(f=null);if(t==="|=")return o(f,f);' },
  ],
};
