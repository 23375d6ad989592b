// jq takes an argument for an option only when it looks like one: `-` followed by a letter, or `--…` (src/main.c,
// isoptish). So `jq '-.'`, `jq -n '-1 | floor'` and `jq '-(.a)'` are filters starting with a minus. just-bash took
// every argument starting with `-` for options and refused `-.` as an option it does not have.
export default {
  title: "jq takes '-.' and '-1 | …' as the filter: only '-' plus a letter is an option",
  upstream: 'src/commands/jq (argument parsing): treat an argument as short options only when it is `-` followed by a letter',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'if(e.startsWith("-")){for(let n of e.slice(1))',
      replace: 'if(/^-[A-Za-z]/.test(e)){for(let n of e.slice(1))',
    },
  ],
};
