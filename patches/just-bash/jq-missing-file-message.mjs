// jq names an input file it cannot open as `jq: error: Could not open file F: No such file or directory`, goes on
// with the other files and exits 2 (src/util.c jq_util_input_next_input). just-bash said `jq: F: No such file or
// directory` and stopped before reading the files after it. jq's stdout is buffered, so where both streams meet the
// open errors come before the output.
export default {
  title: 'jq: a missing input file is "Could not open file", the other files still run, status 2',
  upstream: 'src/commands/jq/jq.ts: read the files without stopping at an error; word each error as jq\'s util.c does; exit 2 after the run when one failed',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    { find: 'let D=[];if(!u', replace: 'let D=[],JF="";if(!u' },
    {
      find: 'let r=await d("file read",()=>F(t,N,{cmdName:"jq",stopOnError:!0}));if(r.exitCode!==0)return{stdout:"",stderr:r.stderr,exitCode:2};',
      replace: 'let r=await d("file read",()=>F(t,N,{cmdName:"jq",stopOnError:!1}));JF=r.stderr.replace(/^jq: (.*): No such file or directory$/gm,"jq: error: Could not open file $1: No such file or directory");',
    },
    {
      find: 'return{stdout:Q?h?Q:`${Q}\n`:"",stderr:JE,exitCode:JL?5:te}',
      replace: 'let JO=Q?h?Q:`${Q}\n`:"";return{stdout:JO,stderr:JF+JE,exitCode:JF?2:JL?5:te,...JF?{outputOrder:[0,JF.length,JO.length,JE.length]}:{}}',
    },
  ],
};
