// With `set -x` bash writes a command's trace line to its own stderr before it performs the command's redirections
// and runs it: where the shell's stderr meets stdout (`exec 2>&1`, `{ …; } 2>&1`) the trace comes first (`+ echo
// hi`, then `hi`), and the command's own redirections never take it (`echo hi 2>&1 | cat` leaves the trace on
// stderr, `echo hi 2>/dev/null` still shows it). just-bash prepended the trace to the command's stderr before
// applying its redirections, which also wrote it after the command's stdout where the two were joined. The trace
// now goes where the shell's own stderr goes, marked (`outputOrder`, patch joined-output-order) as written first.
const join = [
  // The runs of `a` then those of `b`, as one result with its output order (stdout-first alternating lengths).
  'function _jbTraceJoin(a,b){let o=[],so="",se="";for(let[x,f]of[...__jbOutputRuns(a.outputOrder,a.stdout,a.stderr),...__jbOutputRuns(b.outputOrder,b.stdout,b.stderr)]){f?so+=x:se+=x;o.length===0&&!f&&o.push(0);let z=o.length-1;z>=0&&z%2===0===f?o[z]+=x.length:o.push(x.length)}',
  'return{...b,stdout:so,stderr:se,outputOrder:o}}',
].join('');
export default {
  title: 'an xtrace line goes to the shell\'s stderr, before the output of the command it traces',
  upstream: 'src/interpreter/interpreter.ts executeSimpleCommandInner: apply the command\'s redirections to its own result without the xtrace text, then route the trace through the shell\'s file descriptors only and put it before the command\'s output',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'function am(e){', replace: `${join}function am(e){` },
    {
      find: 'v=await rn(this.ctx,v,t.redirections,b.targets,b.dupSources,b.standardRoutes,v.internalProducerCommand??u,v.internalProducerOmitsShellPrefix),',
      replace:
        'v=await rn(this.ctx,A&&v.stderr.startsWith(A)?{...v,stderr:v.stderr.slice(A.length)}:v,t.redirections,b.targets,b.dupSources,b.standardRoutes,v.internalProducerCommand??u,v.internalProducerOmitsShellPrefix),' +
        'A&&v.stderr!==void 0&&(v=_jbTraceJoin(await rn(this.ctx,{stdout:"",stderr:A,exitCode:0},[],new Map,new Map,new Map),v)),',
    },
  ],
};
