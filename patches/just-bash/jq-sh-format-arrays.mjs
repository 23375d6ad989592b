// jq's @sh quotes a string for the shell and, given an array, each element (strings quoted, numbers, booleans and
// null as they print), joined with spaces: `["a b","c"] | @sh` is `'a b' 'c'` (jq's manual, "Format strings"); an
// object or a nested array cannot be escaped. just-bash gave null for anything but a string.
export default {
  title: 'jq @sh formats arrays and scalars, not only strings',
  upstream: 'src/commands/query-engine (format strings, @sh): quote strings, print other scalars, join an array\'s elements with spaces, fail on objects and nested arrays',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: String.raw`case"@sh":return typeof e=="string"?[` + "`'${e.replace(/'/g,\"'\\\\''\")}'`" + String.raw`]:[null];`,
      replace:
        String.raw`case"@sh":{let q=v=>{if(typeof v=="string")return"'"+v.replace(/'/g,"'\\''")+"'";if(v!==null&&typeof v=="object")throw new Error((Array.isArray(v)?"array":"object")+" ("+JSON.stringify(v)+") can not be escaped for shell");return String(v)};return[Array.isArray(e)?e.map(q).join(" "):q(e)]}`,
    },
  ],
};
