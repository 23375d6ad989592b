// jq orders all values one way (jq's manual, "sort"; src/jv.c jv_cmp): null < false < true < numbers < strings <
// arrays < objects, strings by their code points (memcmp of UTF-8), arrays element by element, objects by their
// sorted keys and then their values; `<`, `<=`, `>`, `>=` use the same order. just-bash compared strings with
// localeCompare (so sort gave ["a","b","B"] for jq's ["B","a","b"]) and its comparison operators knew only two
// numbers or two strings, calling every other pair equal (`"a" > 0`, `[1,2] < [1,3]` were false).
const codePoints = '(e<n?-1:e>n?1:0)';
export default {
  title: 'jq compares and sorts values in jq\'s order (types, then code points, arrays, objects)',
  upstream: 'src/commands/query-engine (compareJq and the binary comparison operators): compare strings by code point, and route <, <=, >, >= through the full value order',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'function Y(e,n){return typeof e=="number"&&typeof n=="number"?e-n:typeof e=="string"&&typeof n=="string"?e.localeCompare(n):0}',
      replace: 'function Y(e,n){return Z(e,n)}',
    },
    {
      find: 'if(typeof e=="string"&&typeof n=="string")return e.localeCompare(n);if(typeof e=="boolean"',
      replace: `if(typeof e=="string"&&typeof n=="string")return${codePoints};if(typeof e=="boolean"`,
    },
    {
      find: 'let c=u[i].localeCompare(f[i]);if(c!==0)return c}if(u.length!==f.length)',
      replace: 'let c=(u[i]<f[i]?-1:u[i]>f[i]?1:0);if(c!==0)return c}if(u.length!==f.length)',
    },
  ],
};
