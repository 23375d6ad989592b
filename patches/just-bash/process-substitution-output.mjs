// An output process substitution `>(cmd)` that a persistent redirection keeps open (`exec > >(tee log)`,
// `exec 3> >(cat)`) stays open: what the shell writes to it collects until no descriptor names it any more
// (`exec >&-`, `exec 1>&3`, the end of the subshell that opened it) or the shell ends, and then the command reads
// it, its output going where the shell's stdout was when the substitution was expanded (bash's manual, "Process
// Substitution"). just-bash ran the command with empty input at the end of the `exec` command itself and removed
// its /dev/fd file, so the next write failed with EROFS. A held substitution keeps its /dev/fd number, so a new
// one takes the next free number (bash counts down from 63 the same way).
export default {
  title: 'an output process substitution held open by exec collects until its descriptor closes',
  upstream: 'src/interpreter/expansion/process-substitution.ts: after a command, keep an output substitution whose path a descriptor still names (state.heldProcessSubstitutions) and run it when none does or at the end of the top-level script, with the descriptor table it was expanded under',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // Numbering skips held substitutions; each remembers the descriptor table it was expanded under.
      find: 'let s=Wc-n.length,i=`${os}/${s}`;n.push({fd:s,path:i,direction:t.direction,body:t.body});',
      replace: 'let _h=e.state.heldProcSubs??[];if(n.length+_h.length>=Bc)throw new x(`Process substitution limit exceeded (${Bc} concurrent)`,"file_descriptors");let s=Wc;for(;n.some(p=>p.fd===s)||_h.some(p=>p.fd===s);)s--;let i=`${os}/${s}`;n.push({fd:s,path:i,direction:t.direction,body:t.body,pid:e.state.bashPid,fds:e.state.fileDescriptors?new Map(e.state.fileDescriptors):void 0,inputFds:e.state.inputFds?new Set(e.state.inputFds):void 0,closed:e.state.closedStandardFds?new Set(e.state.closedStandardFds):void 0});',
    },
    {
      // The /dev/fd files that stay writable: the live substitutions, the held ones and coprocesses' write ends.
      find: 'Vc(e).some(r=>r.path===`${os}${n}`)',
      replace: '[...Vc(e),...e.state.heldProcSubs??[],...e.state.coprocs??[]].some(r=>r.path===`${os}${n}`)',
    },
    {
      find: 'async function qi(e,t){',
      replace: [
        // Whether a descriptor (other than a closed one) still writes to path.
        'function _jbFdNames(e,p){for(let v of e.state.fileDescriptors?.values()??[]){let d=yh(v);if((d.kind==="output"||d.kind==="readwrite")&&d.path===p)return!0}return!1}',
        // Runs an output substitution on what was written to it, under the descriptors it was expanded under.
        'async function _jbTakeOutSub(e,i){let o="";try{o=await vn(e.fs,i.path)}catch{}return await Gp(e,i.path),o}',
        'async function _jbRunOutSub(e,i,o){let F=e.state.fileDescriptors,I=e.state.inputFds,C=e.state.closedStandardFds;e.state.fileDescriptors=i.fds?new Map(i.fds):void 0,e.state.inputFds=i.inputFds?new Set(i.inputFds):void 0,e.state.closedStandardFds=i.closed?new Set(i.closed):void 0;try{return await zc(e,i.body,o)}finally{e.state.fileDescriptors=F,e.state.inputFds=I,e.state.closedStandardFds=C}}',
        // Runs the held substitutions no descriptor names any more (with all, every one this shell opened), oldest first.
        'async function _jbReleaseHeld(e,all){let H=e.state.heldProcSubs,r="",s="";if(!H?.length)return{stdout:r,stderr:s};for(let i of[...H]){if(all?i.pid!==e.state.bashPid:_jbFdNames(e,i.path))continue;let o;try{o=await _jbTakeOutSub(e,i)}finally{H.splice(H.indexOf(i),1)}let a=await _jbRunOutSub(e,i,o);r+=xt(a),s+=a.stderr}return{stdout:r,stderr:s}}',
        'async function qi(e,t){if(!e.state.heldProcSubs?.length)return _jbQi(e,t);let _r=await _jbReleaseHeld(e,!1),_o=await _jbQi(e,t);return _r.stdout||_r.stderr?{stdout:_o.stdout+_r.stdout,stderr:_o.stderr+_r.stderr}:_o}',
        'async function _jbQi(e,t){',
      ].join(''),
    },
    {
      find: 'if(i.direction==="output")try{o=await vn(e.fs,i.path)}catch{}if(await Gp(e,i.path),n.pop(),i.direction==="output"){let a=await zc(e,i.body,o);r+=xt(a),s+=a.stderr}',
      replace: 'if(i.direction==="output"&&_jbFdNames(e,i.path)){n.pop(),(e.state.heldProcSubs??=[]).push(i);continue}if(i.direction==="output"){let o;try{o=await _jbTakeOutSub(e,i)}finally{n.pop()}let a=await _jbRunOutSub(e,i,o);r+=xt(a),s+=a.stderr;continue}if(await Gp(e,i.path),n.pop(),!1){}',
    },
    {
      // The end of the top-level script ends the substitutions still held open.
      find: 'return{...r.build(n),env:Wt(this.ctx.state.env)}}async executeUserScript',
      replace: 'if(t===this.ctx.state.topLevelScript&&this.ctx.state.heldProcSubs?.length){let f=await _jbReleaseHeld(this.ctx,!0);r.append("stdout",f.stdout),r.append("stderr",f.stderr)}return{...r.build(n),env:Wt(this.ctx.state.env)}}async executeUserScript',
    },
    {
      // `exit` ends the substitutions this shell holds open (a subshell's own ones only).
      find: 'if(t==="exit")return Fo(c,n);',
      replace: 'if(t==="exit"){if(!c.state.heldProcSubs?.length)return Fo(c,n);try{Fo(c,n)}catch(X){if(!(X instanceof G))throw X;let f=await _jbReleaseHeld(c,!0);throw X.stdout+=f.stdout,X.stderr+=f.stderr,X}}',
    },
  ],
};
