// In arithmetic a variable's value is read as an arithmetic expression, so a leading 0 makes it octal and 0x
// hexadecimal: `x=010; echo $((x + 0))` prints 8. Bash's manual, "Shell Arithmetic" ("constants with a leading 0
// are interpreted as octal numbers"; "the value of a variable is evaluated as an arithmetic expression"); just-bash
// read any all-digit value as decimal.
export default {
  title: 'a variable holding 010 is octal in arithmetic',
  upstream: 'src/interpreter/arithmetic.ts resolveVariable: take the decimal fast path only for a value without a leading 0; others go through the constant parser',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let r=await eh(e,t);if(!r)return 0;let s=Number.parseInt(r,10);if(!Number.isNaN(s)&&/^-?\\d+$/.test(r.trim()))return s;',
      replace: 'let r=await eh(e,t);if(!r)return 0;let s=Number.parseInt(r,10);if(!Number.isNaN(s)&&/^-?(0|[1-9]\\d*)$/.test(r.trim()))return s;',
    },
  ],
};
