// jq's numbers round as C's do: `round` half away from zero (C round), `nearbyint` and `rint` half to even (the
// default rounding mode); `a % b` is the remainder of the two numbers cut to integers (jq 1.6: (intmax_t)a %
// (intmax_t)b, an error when the cut divisor is 0). just-bash used Math.round (half up: -2.5 to -2), had no rint,
// and took the remainder of the fractions (5.9 % 2 was 1.9000000000000004).
export default {
  title: "jq rounds and takes remainders as C and jq 1.6 do",
  upstream: "src/commands/jq/ (math builtins round, nearbyint, rint; the % operator): C rounding and integer remainder",
  file: "dist/bundle/chunks/chunk-6KK46B7Q.js",
  edits: [
    { find: "[\"round\",Math.round]", replace: "[\"round\",x=>Math.sign(x)*Math.round(Math.abs(x))]" },
    { find: "case\"nearbyint\":return typeof e==\"number\"?[Math.round(e)]:[null];", replace: "case\"rint\":case\"nearbyint\":return typeof e==\"number\"?[Math.abs(e%1)===.5?2*Math.round(e/2):Math.round(e)]:[null];" },
    { find: "case\"%\":if(typeof f==\"number\"&&typeof i==\"number\"){if(i===0)throw", replace: "case\"%\":if(typeof f==\"number\"&&typeof i==\"number\"&&Number.isFinite(f)&&Number.isFinite(i)){if(Math.trunc(i)===0)throw new Error(`number (${f}) and number (${i}) cannot be divided (remainder) because the divisor is zero`);let q=Math.trunc(f)%Math.trunc(i);return q===0?0:q}if(typeof f==\"number\"&&typeof i==\"number\"){if(i===0)throw" },
  ],
};
