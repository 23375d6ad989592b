// `jq -e` sets the status from the filter's run on the last input: 4 when that run produced no output, else 1 when
// its last output was false or null, else 0; with no input at all nothing ran and the status is 0 (the manual's
// `--exit-status`; src/main.c, process's return per input). just-bash gave 1 for no output and looked at every
// output, so `[1, null]`'s `.[]` passed with 0.
export default {
  title: 'jq -e: status from the last input\'s run: 4 for no output, 1 when its last output is false or null',
  upstream: 'src/commands/jq (exit status): with -e, the last input\'s run decides: 4 for no output, else 1 when its last output is false or null',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      // How many outputs there were before the current input's run, and whether any input ran.
      find: 'let QI={values:IQ,next:0},JE="",JL=!1,JR=x=>{JL=!1;try{',
      replace: 'let QI={values:IQ,next:0},JE="",JL=!1,JS0=0,JRan=!1,JR=x=>{JL=!1,JS0=e.length,JRan=!0;try{',
    },
    {
      find: 'te=x&&(e.length===0||e.every(o=>o==null||o===!1))?1:0;',
      replace: 'te=!x||!JRan?0:e.length===JS0?4:e[e.length-1]==null||e[e.length-1]===!1?1:0;',
    },
  ],
};
