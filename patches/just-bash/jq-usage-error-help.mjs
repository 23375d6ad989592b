// jq ends the messages of a bad command line (`--argjson` with text that is no JSON, an option missing its
// parameters) with two lines pointing at the help, and exits 2 (src/main.c die()): jq 1.7, which sprites run, says
// `Use jq --help for help with command-line options,` and `or see the jq manpage, or online docs  at
// https://jqlang.github.io/jq` (jq 1.6 named stedolan.github.io). just-bash printed the first line alone.
export default {
  title: 'jq command-line errors end with the two help lines',
  upstream: 'src/commands/jq/jq.ts usage errors: append jq\'s die() lines',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'function S(i){return{stdout:"",stderr:`jq: ${i}\n`,exitCode:2}}',
      replace: 'function S(i){return{stdout:"",stderr:`jq: ${i}\n${/slurpfile$/.test(i)?"":"Use jq --help for help with command-line options,\\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\\n"}`,exitCode:2}}',
    },
  ],
};
