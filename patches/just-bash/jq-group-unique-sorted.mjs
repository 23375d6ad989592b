// jq's group_by(f) sorts its groups by f's value and unique sorts what it keeps (jq's builtin.jq: both are built
// on sort_by), in jq's order of values: `["b","a","B","a"] | unique` is ["B","a","b"]. just-bash kept first
// appearances in input order for both.
export default {
  title: 'jq group_by and unique sort their result in jq\'s order',
  upstream: 'src/commands/query-engine (builtins group_by, unique): sort the groups by their key, and the unique values, with compareJq',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'c.has(a)||c.set(a,[]),c.get(a)?.push(h)}return[[...c.values()]]}',
      replace: 'c.has(a)||c.set(a,[]),c.get(a)?.push(h)}return[[...c.values()].sort((x,y)=>Z(s(x[0],t[0],r)[0],s(y[0],t[0],r)[0]))]}',
    },
    {
      find: 'for(let u of e){let f=JSON.stringify(u);o.has(f)||(o.add(f),p.push(u))}return[p]}',
      replace: 'for(let u of e){let f=JSON.stringify(u);o.has(f)||(o.add(f),p.push(u))}return[p.sort(Z)]}',
    },
  ],
};
