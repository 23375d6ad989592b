// The other half of joined-output-order, for output gathered from several commands: a statement (`a && b`), a group
// `{ …; }`, a subshell, a function body and a script keep the order their commands wrote stdout and stderr in, as
// the `outputOrder` of their result, so `{ echo a; ls nope; echo b; } 2>&1` gives a, the message, b (just-bash
// gathered each stream on its own: a, b, then the message). The builder counts each chunk it is given as a run of
// its stream, and a command result with an order of its own as those runs. Output holding bytes that are not UTF-8
// (byte-output-joins) is encoded afresh when built and keeps no order.
export default {
  title: 'output gathered from several commands keeps the order of its stdout and stderr',
  upstream: 'src/interpreter/output-builder.ts OutputBuilder: record the runs of stdout and stderr as they are appended (a result\'s own outputOrder when it has one) and put them on the built result as outputOrder; remember the last built result so the control-flow builder can take its order',
  file: 'dist/bundle/chunks/chunk-J2OBOJ64.js',
  edits: [
    {
      find: 'append(t,s,e=0,r="text"){let d;',
      replace: 'append(t,s,e=0,r="text"){s&&!this.__jbSkip&&this.__jbRun(t==="stdout",s.length);let d;',
    },
    {
      find: 'export{h as a}',
      replace:
        'h.prototype.__jbRun=function(f,n){let O=this.__jbO??=[];O.length===0&&!f&&O.push(0);let z=O.length-1;z>=0&&z%2===0===f?O[z]+=n:O.push(n)};' +
        'h.prototype.__jbAppendResult=h.prototype.appendResult;' +
        'h.prototype.appendResult=function(t,s=t.stdout){this.__jbSkip=!0;try{this.__jbAppendResult(t,s)}finally{this.__jbSkip=!1}let o=s===t.stdout&&Array.isArray(t.outputOrder)?t.outputOrder:[],a=0,b=0,E=t.stderr??"";for(let q=0;q<o.length;q++)o[q]&&(this.__jbRun(q%2===0,o[q]),q%2===0?a+=o[q]:b+=o[q]);s.length>a&&this.__jbRun(!0,s.length-a);E.length>b&&this.__jbRun(!1,E.length-b)};' +
        'h.prototype.__jbBuild=h.prototype.build;' +
        'h.prototype.build=function(t,s){let r=this.__jbBuild(t,s);this.__jbO&&!this.rawStdoutChunks&&r.stdout!==""&&r.stderr!==""&&(r.outputOrder=this.__jbO);return globalThis.__jbLastBuilt=r};' +
        'export{h as a}',
    },
  ],
};
