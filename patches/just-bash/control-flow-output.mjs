// Loops, `if` and `case` gather their output as the other compound commands do (joined-output-order-builder,
// byte-output-joins): in the order of its stdout and stderr (`for …; do echo $i; echo e$i >&2; done 2>&1` gives
// 1 e1 2 e2, not 1 2 e1 e2), and as bytes when a statement wrote bytes that are not UTF-8 (`for …; do printf
// '\377'; done | od` shows ff, not c3 bf). Their builder is given each statement's output as two strings; those are
// the strings of the statement's result, the last result built, whose order and kind are taken from it.
export default {
  title: 'loops, if and case keep the order and the bytes of their output',
  upstream: 'src/interpreter/control-flow.ts OutputCollector: take each statement\'s result (not its two strings), record its stdout/stderr runs (its outputOrder) and whether its stdout is bytes that are not UTF-8, and build outputOrder and a bytes stdout (text chunks UTF-8 encoded) from them',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // __jbPushRuns adds order `o` over stdout S and stderr v to the runs O, the rest of each stream at the end.
      find: 'var on=class{ctx;stdoutChunks=[];stderrChunks=[];totalBytes=0;constructor(t){this.ctx=t}append(t,n){let r=B(t)+B(n);',
      replace:
        'function __jbPushRuns(O,o,S,v){let a=0,b=0,P=(f,n)=>{if(!n)return;O.length===0&&!f&&O.push(0);let z=O.length-1;z>=0&&z%2===0===f?O[z]+=n:O.push(n)};if(Array.isArray(o))for(let q=0;q<o.length;q++)P(q%2===0,o[q]),q%2===0?a+=o[q]:b+=o[q];P(!0,Math.max(0,S.length-a)),P(!1,Math.max(0,v.length-b))}' +
        'var on=class{ctx;stdoutChunks=[];stderrChunks=[];totalBytes=0;constructor(t){this.ctx=t}append(t,n){let __L=globalThis.__jbLastBuilt;__L=__L&&__L.stdout===t&&__L.stderr===n?__L:void 0;__jbPushRuns(this.__jbO??=[],__L?.outputOrder,t,n);t&&__L?.stdoutKind==="bytes"&&/[\\x80-\\xff]/.test(t)&&(this.__jbRaw??=new Set).add(this.stdoutChunks.length);let r=B(t)+B(n);',
    },
    {
      // `replace` with what the builder already holds (a `case` branch appended into it) keeps its order and bytes.
      find: 'replace(t,n){this.stdoutChunks=[],this.stderrChunks=[],this.totalBytes=0,this.append(t,n)}',
      replace: 'replace(t,n){if(t===this.stdout&&n===this.stderr)return;this.stdoutChunks=[],this.stderrChunks=[],this.totalBytes=0,this.__jbO=[],this.__jbRaw=void 0,this.append(t,n)}',
    },
    {
      find: 'build(t){let n=this.stdout,r=this.stderr;return{stdout:n,stderr:r,exitCode:t,internalOutputAccounting:{stdout:B(n),stderr:B(r)}}}',
      replace:
        'build(t){let R=this.__jbRaw,n=R?this.stdoutChunks.map((c,j)=>R.has(j)?c:Tt(c)).join(""):this.stdout,r=this.stderr;return{stdout:n,stderr:r,exitCode:t,internalOutputAccounting:{stdout:R?n.length:B(n),stderr:B(r)},...R?{stdoutKind:"bytes",stdoutEncoding:"binary"}:n!==""&&r!==""&&this.__jbO?{outputOrder:this.__jbO}:{}}}',
    },
  ],
};
