// jq orders nan below every other number (src/jv.c jv_cmp: a nan compares as less, so `nan < 1`, `nan < nan` and
// `1 > nan` are true, `[1,nan] | max` is 1 and `sort` puts it first) and equality is that order's tie, so `nan ==
// nan` is false and objects are equal whatever their keys' order (`{a:1,b:2} == {b:2,a:1}`). just-bash subtracted
// numbers (nan - 1 is NaN: every comparison false; infinite - infinite too) and tested equality by comparing JSON
// texts (nan and null both print as null; key order mattered for ==, index, contains…).
export default {
  title: 'jq orders nan below all numbers; == is the order\'s equality',
  upstream: 'src/commands/query-engine value comparison: nan first among numbers, no subtraction; deep equality from the comparison',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'if(typeof e=="number"&&typeof n=="number")return e-n;',
      replace: 'if(typeof e=="number"&&typeof n=="number")return Number.isNaN(e)?-1:Number.isNaN(n)?1:e<n?-1:e>n?1:0;',
    },
    { find: 'function J(e,n){return JSON.stringify(e)===JSON.stringify(n)}', replace: 'function J(e,n){return Z(e,n)===0}' },
  ],
};
