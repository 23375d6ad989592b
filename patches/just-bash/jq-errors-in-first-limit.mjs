// jq's `first(f)`, `limit(n; f)`, `isempty(g)`, `any(g; c)` and `all(g; c)` stop f once they have their answer, but
// an error f raises before that is an error (src/builtin.jq: they are label/break over f, which catches nothing;
// `any`/`all` break on the item after the deciding one): `first(.[])` of a number is `Cannot iterate over number
// (5)`, `first(1, error("x"))` is 1, `[limit(3; 1, 2, error("x"))]` fails. just-bash caught every error in f and
// answered empty, true or false (or what came before), so a wrong shape passed as "no results".
export default {
  title: 'jq first/limit/isempty/any/all pass on an error their generator raises before their answer',
  upstream: 'src/commands/query-engine (builtins first/limit/isempty/any/all): keep the outputs made before an error, and rethrow it when they do not decide the answer',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'case"first":if(t.length>0)try{let f=o(e,t[0],r);return f.length>0?[f[0]]:[]}catch(f){if(f instanceof u)throw f;return[]}',
      replace:
        'case"first":if(t.length>0)try{let f=s(e,t[0],r);return f.length>0?[f[0]]:[]}catch(f){if(f instanceof u)throw f;let k=f?.jqPartial?.node===t[0]?f.jqPartial.results:[];if(k.length)return[k[0]];throw f}',
    },
    {
      find: 'let h;try{h=o(e,t[1],r)}catch(a){if(a instanceof u)throw a;h=[]}return h.slice(0,c)});',
      replace: 'let h;try{h=s(e,t[1],r)}catch(a){if(a instanceof u)throw a;h=a?.jqPartial?.node===t[1]?a.jqPartial.results:[];if(h.length<c)throw a}return h.slice(0,c)});',
    },
    {
      find: 'try{return[o(e,t[0],r).length===0]}catch(f){if(f instanceof u)throw f;return[!0]}}',
      replace: 'try{return[s(e,t[0],r).length===0]}catch(f){if(f instanceof u)throw f;if(f?.jqPartial?.node===t[0]&&f.jqPartial.results.length)return[!1];throw f}}',
    },
    {
      find: 'try{let c=o(e,t[0],r);for(let h of c)if(s(h,t[1],r).some(u))return[!0]}catch(c){if(c instanceof i)throw c}return[!1]}',
      replace: 'let c;try{c=s(e,t[0],r)}catch(x){if(x instanceof i)throw x;c=x?.jqPartial?.node===t[0]?x.jqPartial.results:[];for(let h=0;h<c.length-1;h++)if(s(c[h],t[1],r).some(u))return[!0];throw x}for(let h of c)if(s(h,t[1],r).some(u))return[!0];return[!1]}',
    },
    {
      find: 'try{let c=o(e,t[0],r);for(let h of c)if(!s(h,t[1],r).some(u))return[!1]}catch(c){if(c instanceof i)throw c}return[!0]}',
      replace: 'let c;try{c=s(e,t[0],r)}catch(x){if(x instanceof i)throw x;c=x?.jqPartial?.node===t[0]?x.jqPartial.results:[];for(let h=0;h<c.length-1;h++)if(!s(c[h],t[1],r).some(u))return[!1];throw x}for(let h of c)if(!s(h,t[1],r).some(u))return[!1];return[!0]}',
    },
  ],
};
