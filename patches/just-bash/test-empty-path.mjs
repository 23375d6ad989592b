// A file test on the empty string is false: there is no file named "" (stat("") fails with ENOENT), so
// `[ -x "$(command -v jq)" ]` says no when jq is missing. just-bash resolved "" against the working directory and
// answered for it: `[ -e "" ]`, `[ -d "" ]` and `[ -x "" ]` were true. POSIX test, and bash's `test` builtin.
export default {
  title: 'a file test on the empty string is false (no file is named "")',
  upstream: 'src/interpreter/conditionals.ts (evaluateFileTest): return false for an empty operand before resolving it against the working directory',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function ds(e,t,n){let r=Xi(e,n);',
      replace: 'async function ds(e,t,n){if(n==="")return!1;let r=Xi(e,n);',
    },
  ],
};
