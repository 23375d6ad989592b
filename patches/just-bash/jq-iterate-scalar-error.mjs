// jq's `.[]` over a value that is not an array or object is an error, `Cannot iterate over number (5)`, with the
// value dumped and cut to 14 characters (`("a very lon...)`), status 5 (src/execute.c, EACH); `.[]?` keeps quiet.
// just-bash yielded nothing, so `.a[]` on a wrong shape passed silently with status 0.
export default {
  title: 'jq .[] over a scalar or null is jq\'s "Cannot iterate over" error',
  upstream: 'src/commands/query-engine (evaluate, Iterate): throw `Cannot iterate over ${type} (${dump truncated to 14})` for anything but an array or object',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'return M(t,r,s=>Array.isArray(s)?s:s&&typeof s=="object"?Object.values(s):[])}',
      replace:
        'return M(t,r,s=>{if(Array.isArray(s))return s;if(s&&typeof s=="object")return Object.values(s);let T=s===null?"null":typeof s,V=JSON.stringify(s)??"null";' +
        'throw new Error(`Cannot iterate over ${T} (${V.length>14?V.slice(0,11)+"...":V})`)})}',
    },
  ],
};
