// jq's `input` and `inputs` read the values still waiting on jq's input (jq's manual, "I/O"): `jq -n '[inputs]'`
// gathers every value, `jq -nR '[inputs]'` every line, `jq -c input -n <<< '1 2'` prints 1. The jq command now parses
// every input value (or raw line) into one queue that the main loop and those builtins take from in turn; with -n the
// input is read only when the filter names them (jq opens it lazily). As in jq's main loop, an error while one input
// runs is reported and the next input runs (the status is 5 when the last input's run failed, as jq's process() result): `jq -c input <<< '1 2 3'` prints 2, then fails.
// The error names where jq's reader stood (src/util.c, jq_util_input_get_position): `(at FILE:N)`, FILE the input
// the value came from (`<stdin>`), N the lines read of it when the value was parsed (jq reads a line at a time, so the
// value's own line counts when it ends in a newline); `(at <unknown>)` under -n before anything was read.
export default {
  title: 'jq input/inputs: one queue of input values shared by the main loop and the builtins',
  upstream: 'src/commands/jq/jq.ts jq: parse all inputs into a queue passed to the evaluator (options.inputs); run the filter on each value taken from it, or once on null with -n',
  file: 'dist/bundle/chunks/chunk-UL6YJ7FT.js',
  edits: [
    {
      // Where each top-level JSON value of a text ends (the index after it), and the position jq reports for it.
      find: 'function ne(i){let t="",d=!1,m=!1;',
      replace:
        'function __jqValueEnds(t){let r=[],i=0,n=t.length;for(;;){for(;i<n&&/\\s/.test(t[i]);)i++;if(i>=n)return r;let d=0;' +
        'do{let c=t[i];if(c===\'"\'){for(i++;i<n&&t[i]!==\'"\';)i+=t[i]==="\\\\"?2:1;i++}else if(c==="["||c==="{")d++,i++;else if(c==="]"||c==="}")d--,i++;' +
        'else if(d>0)i++;else for(;i<n&&!/[\\s\\[\\]{}"]/.test(t[i]);)i++}while(d>0&&i<n);r.push(i)}}' +
        'function __jqAt(S,t,e){let k=t.indexOf(`\\n`,e),m=(k<0?t:t.slice(0,k+1)).split(`\\n`).length-1;return`${S==="stdin"?"<stdin>":S}:${m}`}' +
        'function ne(i){let t="",d=!1,m=!1;',
    },
    { find: 'if(!u)if(N.length===0||', replace: 'if(!u||/\\binputs?\\b/.test(V))if(N.length===0||' },
    {
      find:
        'if(u)e=C(null,r,n);else if(s&&p){let o=D.map(({content:f})=>f).join("");e=C(o,r,n)}else if(s){let o="";for(let{content:f}of D){let c=o+f,w=0,O=c.indexOf(`\n`,w);for(;O!==-1;)l(e,C(c.slice(w,O),r,n)),w=O+1,O=c.indexOf(`\n`,w);o=c.slice(w)}o!==""&&l(e,C(o,r,n))}else if(p){let o=[];for(let{content:f}of D){let c=f.trim();c&&l(o,J(c,v))}e=C(o,r,n)}else for(let{content:o}of D){let f=o.trim();if(!f)continue;let c=J(f,v);for(let w of c)l(e,C(w,r,n))}',
      replace:
        'let IQ=[],IL=[],LZ=D.length?__jqAt(D[D.length-1].source,D[D.length-1].content,D[D.length-1].content.length):"<unknown>";if(s&&p)IQ.push(D.map(({content:f})=>f).join("")),IL.push(LZ);else if(s){let o="";for(let{content:f,source:S}of D){let c=o+f,w=0,O=c.indexOf(`\n`,w);for(;O!==-1;)l(IQ,[c.slice(w,O)]),IL.push(__jqAt(S,f,O-(c.length-f.length))),w=O+1,O=c.indexOf(`\n`,w);o=c.slice(w)}o!==""&&(l(IQ,[o]),IL.push(LZ))}else if(p){let o=[];for(let{content:f}of D){let c=f.trim();c&&l(o,J(c,v))}IQ.push(o),IL.push(LZ)}else for(let{content:o,source:S}of D){let f=o.trim();if(!f)continue;let V0=IQ.length,E0=__jqValueEnds(o);l(IQ,J(f,v));for(let q=V0;q<IQ.length;q++)IL.push(__jqAt(S,o,E0[q-V0]??o.length))}let QI={values:IQ,next:0},JE="",JL=!1,JR=x=>{JL=!1;try{l(e,C(x,r,n))}catch(err){JL=!0;if(err instanceof H||err instanceof j||/Unknown function/.test(err?.message))throw err;JE+=`jq: error (at ${QI.next>0?IL[QI.next-1]??IL[IL.length-1]:"<unknown>"}): ${B(err.message)}\n`}};n.inputs=QI;if(u)JR(null);else for(;QI.next<IQ.length;)JR(IQ[QI.next++]);',
    },
    // The errors reported, and status 5 when the last input's run failed (jq's main loop keeps the last result).
    { find: ',stderr:"",exitCode:te}}catch(r){', replace: ',stderr:JE,exitCode:JL?5:te}}catch(r){' },
  ],
};
