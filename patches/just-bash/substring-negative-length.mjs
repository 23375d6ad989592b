// `${s:offset:length}` with a negative length counts the end back from the end of the value; an end before the
// offset is an expansion error (`-3: substring expression < 0`), which abandons the line with status 1. Bash's manual,
// "Shell Parameter Expansion" ("If length evaluates to a number less than zero … it is an expansion error if length
// evaluates to a number less than zero" beyond the offset); a negative offset that reaches before the start gives
// nothing. just-bash gave an empty string and went on, and clamped such an offset to the start.
export default {
  title: 'substrings: a negative length ending before the offset is an expansion error; a negative offset past the start gives nothing',
  upstream: 'src/interpreter/expansion/parameter-ops.ts applySubstring: throw ArithmeticError("LENGTH: substring expression < 0") when offset > length + end',
  file: 'dist/bundle/index.js',
  edits: [
    // A negative offset past the start gives nothing (bash: `${x: -5}` on `abc` is empty), not the whole value.
    { find: 'let a=[...n],l=s;if(l<0&&(l=Math.max(0,a.length+l)),i!==void 0){', replace: 'let a=[...n],l=s;if(l<0&&a.length+l<0)return"";if(l<0&&(l=Math.max(0,a.length+l)),i!==void 0){' },
    {
      find: 'if(i<0){let c=a.length+i;return a.slice(l,Math.max(l,c)).join("")}',
      replace: 'if(i<0){let c=a.length+i;if(c<l)throw new ce(`${i}: substring expression < 0`);return a.slice(l,c).join("")}',
    },
  ],
};
