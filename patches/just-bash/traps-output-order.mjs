// A trap's output that waits for the next simple command (an ERR trap's, say: traps-in-shell.mjs) comes out before
// that command's output on both streams at once, in the order the trap wrote it: `trap 'echo "ERR $LINENO" >&2' ERR;
// false; echo next` under `2>&1` prints the trap's line first, as bash writes it. The waiting output was two strings,
// put before the command's stdout and stderr, so where the streams meet the trap's stderr came after the command's
// stdout. It now keeps its runs, and the command's result carries the joined order (`outputOrder`, honoured by
// joined-output-order.mjs). Bash's manual, "Bourne Shell Builtins" (trap).
export default {
  title: 'output a trap leaves for the next command keeps its order against that command\'s output on both streams',
  upstream: 'src/interpreter: trap output kept as ordered runs; prepending it to a command result sets the result\'s outputOrder',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function _jbKeepTrapOutput(e,y){let b=e.state.trapOutput??={stdout:"",stderr:"",depth:e.substitutionDepth??0};b.stdout+=y.stdout,b.stderr+=y.stderr}',
      replace: 'function _jbKeepTrapOutput(e,y){let b=e.state.trapOutput??={stdout:"",stderr:"",depth:e.substitutionDepth??0};b.stdout+=y.stdout,b.stderr+=y.stderr,(b.runs??=[]).push(...__jbOutputRuns(y.outputOrder,y.stdout,y.stderr))}',
    },
    {
      find: 'return b||o?{stdout:(b?.stdout??"")+(o?.stdout??""),stderr:(b?.stderr??"")+(o?.stderr??"")}:null}',
      replace:
        'return b||o?{stdout:(b?.stdout??"")+(o?.stdout??""),stderr:(b?.stderr??"")+(o?.stderr??""),runs:[...(b?.runs??__jbOutputRuns(void 0,b?.stdout??"",b?.stderr??"")),...(o?__jbOutputRuns(o.outputOrder,o.stdout,o.stderr):[])]}:null}' +
        // `v` with the runs `p` before its own output: the joined text and the order of its runs.
        'function __jbPrependRuns(p,v){let r=[...p,...__jbOutputRuns(v.outputOrder,v.stdout,v.stderr)],o=[];for(let[t,out]of r){o.length===0&&!out&&o.push(0);let z=o.length-1;z>=0&&z%2===0===out?o[z]+=t.length:o.push(t.length)}let s=r.filter(x=>x[1]).map(x=>x[0]).join(""),d=r.filter(x=>!x[1]).map(x=>x[0]).join("");return s!==""&&d!==""?{...v,stdout:s,stderr:d,outputOrder:o}:{...v,stdout:s,stderr:d}}',
    },
    {
      find: 'if(_po&&(v={...v,stdout:_po.stdout+v.stdout,stderr:_po.stderr+v.stderr})',
      replace: 'if(_po&&(v=__jbPrependRuns(_po.runs,v))',
    },
  ],
};
