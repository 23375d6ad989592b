// jq 1.6 repeats a string `n` times for `"ab" * n` by appending it `n - 1` times (src/builtin.c, f_multiply, the
// count truncated from n - 1): `"ab" * 0.5` is "ab", `"ab" * 2.7` is "abab", and a count under 1 less than 0 after
// the subtraction, `"ab" * 0`, is null. just-bash truncated n itself, so `"ab" * 0` gave "" and `* 0.5` "".
export default {
  title: 'jq string repetition counts as jq 1.6 does (null for 0 and below, one copy below 2)',
  upstream: 'src/commands/query-engine (evaluate, binary "*"): count = trunc(n - 1); null when negative, else repeat count + 1 times',
  file: 'dist/bundle/chunks/chunk-6KK46B7Q.js',
  edits: [
    {
      find: 'let c=Math.trunc(i);if(c<0)return null;let h=x(f)',
      replace: 'let c=Math.trunc(i-1);if(c<0)return null;c++;let h=x(f)',
    },
  ],
};
