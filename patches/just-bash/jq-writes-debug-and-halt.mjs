// The jq command's side of `jq-debug-stderr` and `jq-halt` (src/main.c debug_cb and the jq_halted branch of
// process()): the evaluation context gets a debug sink that appends `["DEBUG:",v]` (compact, -S sorting its keys) to
// stderr in order with the error messages; a halt keeps the outputs made before it (those of the input it stopped
// in too), reads no further input, writes its message (a string as it is, null nothing, another value as compact
// JSON and a newline) and exits with its code (the absolute value, modulo 256, as jq 1.7's exit(abs(ret))).
export default {
  title: 'the jq command prints debug lines and stops at a halt with its status and message',
  upstream: 'src/commands/jq/jq.ts: a debug sink in the evaluation options; a halt ends the input loop and sets stderr and the status',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      find: 'coverage:t.coverage,requireDefenseContext:t.requireDefenseContext,budget:{operations:0,callDepth:0}}',
      replace: 'coverage:t.coverage,requireDefenseContext:t.requireDefenseContext,budget:{operations:0,callDepth:0},jqIo:{debug:o=>{JE+=`["DEBUG:",${ee(o,t.limits.maxStringLength,{compact:!0,sortKeys:E})}]\n`}}}',
    },
    { find: 'let QI={values:IQ,next:0},JE="",', replace: 'let QI={values:IQ,next:0},JE="",JH=null,' },
    {
      find: 'catch(err){JL=!0;if(err instanceof H||',
      replace: 'catch(err){if(err?.jqHalt){err.jqPartial?.node===r&&l(e,err.jqPartial.results),JH=err.jqHalt;return}JL=!0;if(err instanceof H||',
    },
    { find: 'if(u)JR(null);else for(;QI.next<IQ.length;)JR(IQ[QI.next++]);', replace: 'if(u)JR(null);else for(;!JH&&QI.next<IQ.length;)JR(IQ[QI.next++]);' },
    {
      find: 'return{stdout:JO,stderr:JF+JE+JP,exitCode:JF?2:JP?5:JL?5:te,',
      replace: 'let HM=JH?JH.message===void 0||JH.message===null?"":typeof JH.message=="string"?JH.message:`${ee(JH.message,t.limits.maxStringLength,{compact:!0})}\n`:"";return{stdout:JO,stderr:JF+JE+(JH?HM:JP),exitCode:JH?Math.abs(Math.trunc(JH.code))%256:JF?2:JP?5:JL?5:te,',
    },
  ],
};
