// `jq -e` sets the status from the last output: 1 when it was false or null, 0 otherwise, and 4 when the filter
// produced no output at all (the manual's `--exit-status`; src/main.c, process's last_result). just-bash gave 1
// for no output and looked at every output, so `[1, null]`'s `.[]` passed with 0.
export default {
  title: 'jq -e: status 1 when the last output is false or null, 4 when there was none',
  upstream: 'src/commands/jq (exit status): with -e, 4 for no output, else 1 when the last output is false or null',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'te=x&&(e.length===0||e.every(o=>o==null||o===!1))?1:0;',
      replace: 'te=!x?0:e.length===0?4:e[e.length-1]==null||e[e.length-1]===!1?1:0;',
    },
  ],
};
