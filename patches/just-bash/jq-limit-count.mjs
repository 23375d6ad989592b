// jq 1.6's `limit(n; f)` is `foreach f as $item (0; .+1; $item, if . >= $n then break $out else empty end)` for
// n >= 0 and f itself for a negative n: `[limit(0; 1,2,3)]` is [1] (the first item goes out before the count is
// checked) and `[limit(-1; 1,2,3)]` is [1,2,3]. just-bash answered [] and failed on a negative count (jq 1.7's rule).
// jq 1.6 src/builtin.jq def limit.
export default {
  title: "jq limit(n; f) counts as jq 1.6 does: n = 0 gives f's first output, a negative n all of them",
  upstream: 'src/commands/query-engine builtins limit: n < 0 yields f; n == 0 yields f\'s first output',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'let c=i;if(c<0)throw new Error("limit doesn\'t support negative count");if(c===0)return[];',
      replace: 'let c=i;if(c<0)return s(e,t[1],r);if(c===0)c=1;',
    },
  ],
};
