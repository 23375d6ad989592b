// jq's sort_by(f), group_by(f), unique_by(f), min_by(f) and max_by(f) key each element by [f] (jq's builtin.jq:
// `sort_by(f): _sort_by_impl(map([f]))`), so `sort_by(.a, .b)` sorts by .a then .b; just-bash took f's first output.
// Of equal keys min_by keeps the first element, max_by the last (jq's _min_by_impl/_max_by_impl).
export default {
  title: "jq sort_by, group_by, unique_by, min_by and max_by key by all of f's outputs",
  upstream: "src/commands/jq/ (sort_by, group_by, unique_by, min_by, max_by): the key is the array of every output of f",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "case\"sort_by\":return!Array.isArray(e)||t.length===0?[null]:[[...e].sort((h,a)=>{let l=s(h,t[0],r)[0],y=s(a,t[0],r)[0];return p(l,y)})];", replace: "case\"sort_by\":return!Array.isArray(e)||t.length===0?[null]:[[...e].sort((h,a)=>{let l=s(h,t[0],r),y=s(a,t[0],r);return p(l,y)})];" },
    { find: "for(let a of e){let l=s(a,t[0],r)[0],y=JSON.stringify(l);c.has(y)||c.set(y,{item:a,key:l})}", replace: "for(let a of e){let l=s(a,t[0],r),y=JSON.stringify(l);c.has(y)||c.set(y,{item:a,key:l})}" },
    { find: "for(let h of e){let a=JSON.stringify(s(h,t[0],r)[0]);c.has(a)||c.set(a,[]),c.get(a)?.push(h)}return[[...c.values()].sort((x,y)=>Z(s(x[0],t[0],r)[0],s(y[0],t[0],r)[0]))]}", replace: "for(let h of e){let a=JSON.stringify(s(h,t[0],r));c.has(a)||c.set(a,[]),c.get(a)?.push(h)}return[[...c.values()].sort((x,y)=>Z(s(x[0],t[0],r),s(y[0],t[0],r)))]}" },
    { find: "case\"max_by\":return!Array.isArray(e)||e.length===0||t.length===0?[null]:[e.reduce((c,h)=>{let a=s(c,t[0],r)[0],l=s(h,t[0],r)[0];return p(a,l)>0?c:h})];", replace: "case\"max_by\":return!Array.isArray(e)||e.length===0||t.length===0?[null]:[e.reduce((c,h)=>{let a=s(c,t[0],r),l=s(h,t[0],r);return p(a,l)>0?c:h})];" },
    { find: "case\"min_by\":return!Array.isArray(e)||e.length===0||t.length===0?[null]:[e.reduce((c,h)=>{let a=s(c,t[0],r)[0],l=s(h,t[0],r)[0];return p(a,l)<0?c:h})];", replace: "case\"min_by\":return!Array.isArray(e)||e.length===0||t.length===0?[null]:[e.reduce((c,h)=>{let a=s(c,t[0],r),l=s(h,t[0],r);return p(a,l)<=0?c:h})];" },
  ],
};
