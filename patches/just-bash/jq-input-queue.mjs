// jq's `input` and `inputs` read the values still waiting on jq's input (jq's manual, "I/O"): `jq -n '[inputs]'`
// gathers every value, `jq -nR '[inputs]'` every line, `jq -c input -n <<< '1 2'` prints 1. The jq command now parses
// every input value (or raw line) into one queue that the main loop and those builtins take from in turn; with -n the
// input is read only when the filter names them (jq opens it lazily). As in jq's main loop, an error while one input
// runs is reported and the next input runs (the status is 5 when the last input's run failed, as jq's process() result): `jq -c input <<< '1 2 3'` prints 2, then fails.
export default {
  title: 'jq input/inputs: one queue of input values shared by the main loop and the builtins',
  upstream: 'src/commands/jq/jq.ts jq: parse all inputs into a queue passed to the evaluator (options.inputs); run the filter on each value taken from it, or once on null with -n',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    { find: 'if(!u)if(N.length===0||', replace: 'if(!u||/\\binputs?\\b/.test(V))if(N.length===0||' },
    {
      find:
        'if(u)e=C(null,r,n);else if(s&&p){let o=D.map(({content:f})=>f).join("");e=C(o,r,n)}else if(s){let o="";for(let{content:f}of D){let c=o+f,w=0,O=c.indexOf(`\n`,w);for(;O!==-1;)l(e,C(c.slice(w,O),r,n)),w=O+1,O=c.indexOf(`\n`,w);o=c.slice(w)}o!==""&&l(e,C(o,r,n))}else if(p){let o=[];for(let{content:f}of D){let c=f.trim();c&&l(o,J(c,v))}e=C(o,r,n)}else for(let{content:o}of D){let f=o.trim();if(!f)continue;let c=J(f,v);for(let w of c)l(e,C(w,r,n))}',
      replace:
        'let IQ=[];if(s&&p)IQ.push(D.map(({content:f})=>f).join(""));else if(s){let o="";for(let{content:f}of D){let c=o+f,w=0,O=c.indexOf(`\n`,w);for(;O!==-1;)l(IQ,[c.slice(w,O)]),w=O+1,O=c.indexOf(`\n`,w);o=c.slice(w)}o!==""&&l(IQ,[o])}else if(p){let o=[];for(let{content:f}of D){let c=f.trim();c&&l(o,J(c,v))}IQ.push(o)}else for(let{content:o}of D){let f=o.trim();f&&l(IQ,J(f,v))}let QI={values:IQ,next:0},JE="",JL=!1,JR=x=>{JL=!1;try{l(e,C(x,r,n))}catch(err){JL=!0;if(err instanceof H||err instanceof j||/Unknown function/.test(err?.message))throw err;JE+=`jq: error (at <stdin>:${QI.next}): ${B(err.message)}\n`}};n.inputs=QI;if(u)JR(null);else for(;QI.next<IQ.length;)JR(IQ[QI.next++]);',
    },
    // The errors reported, and status 5 when the last input's run failed (jq's main loop keeps the last result).
    { find: ',stderr:"",exitCode:te}}catch(r){', replace: ',stderr:JE,exitCode:JL?5:te}}catch(r){' },
  ],
};
