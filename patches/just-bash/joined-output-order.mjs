// Where a command's stdout and stderr meet (`cmd 2>&1`, `cmd >f 2>&1`, `&>f`, `cmd |& next`), real bash gets the
// two streams in the order the program wrote them. just-bash keeps a command's result as two whole strings and
// joined them stdout-first (stderr-first for `|&`). A command result may now carry `outputOrder`: the lengths, in
// characters, of its alternating runs of output, stdout first (`[0, 52, 30]`: 52 characters of stderr, then 30 of
// stdout); each run is written to where its stream goes, in that order, and a result without one is joined as
// before. The order carries over to what the redirection leaves live, so an enclosing `2>&1` or `|&` still sees it.
export default {
  title: 'a command\'s stdout and stderr joined by a redirection or |& keep the order the command wrote them in',
  upstream: 'src/interpreter/redirections.ts applyRedirections (and pipeline.ts for |&): when the result has outputOrder, write its stdout/stderr runs in that order (a later write to the same file appends), and keep the order of the runs left live on the returned result',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The runs of a result in order: [text, isStdout] pairs, the rest of each stream at the end.
      find: 'async function rn(e,t,n,r,s=new Map',
      replace:
        'function __jbOutputRuns(o,S,v){let r=[],i=0,j=0;if(Array.isArray(o))for(let q=0;q<o.length;q++){let n=o[q];q%2===0?(r.push([S.slice(i,i+n),!0]),i+=n):(r.push([v.slice(j,j+n),!1]),j+=n)}r.push([S.slice(i),!0],[v.slice(j),!1]);return r.filter(x=>x[0]!=="")}' +
        'async function rn(e,t,n,r,s=new Map',
    },
    {
      // Both streams to one file or descriptor: one write, its runs in order.
      find: 'if(h===m&&(h.kind==="file"||h.kind==="descriptor")){let A=S+v;',
      replace: 'if(h===m&&(h.kind==="file"||h.kind==="descriptor")){let A=__jbOutputRuns(t.outputOrder,S,v).map(x=>x[0]).join("");',
    },
    {
      // Each run to its stream's target; a file already written by this command is appended to (it was truncated
      // when the redirection opened it); the runs left live make the result's own order.
      find: 'else for(let[A,C,N]of[[S,h,!0],[v,m,!1]])if(A!=="")switch(C.kind){case"live-stdout":l+=A;break;case"live-stderr":c+=A;break;case"file":await k(C,A,N?p(A):Su(A));break;case"descriptor":',
      replace:
        'else{var __jbO=[];let W=new Set,Q=(f,n)=>{__jbO.length===0&&!f&&__jbO.push(0);let z=__jbO.length-1;z>=0&&z%2===0===f?__jbO[z]+=n:__jbO.push(n)};for(let[A,N]of __jbOutputRuns(t.outputOrder,S,v)){let C=N?h:m;switch(C.kind){case"live-stdout":l+=A,Q(!0,A.length);break;case"live-stderr":c+=A,Q(!1,A.length);break;case"file":await k(W.has(C.path)?{...C,append:!0}:C,A,N?p(A):Su(A)),W.add(C.path);break;case"descriptor":C.source.entry.path&&W.add(C.source.entry.path),',
    },
    {
      find: 'case"invalid-output":break;case"discard":break}}let g=L(l,c,u);',
      replace: 'case"invalid-output":break;case"discard":break}}}}let g=L(l,c,u);__jbO?.length>1&&l!==""&&c!==""&&(g.outputOrder=__jbO);',
    },
    {
      // `|&`: the stage's stderr joins its stdout into the pipe in the order written.
      find: 't.pipeStderr?.[g]??!1?s=Tt(N.stderr)+xt(N):',
      replace: 't.pipeStderr?.[g]??!1?s=(N.outputOrder?__jbOutputRuns(N.outputOrder,N.stdout,N.stderr).map(([q,f])=>f?xt({...N,stdout:q}):Tt(q)).join(""):Tt(N.stderr)+xt(N)):',
    },
  ],
};
