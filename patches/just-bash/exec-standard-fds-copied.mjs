// `exec 2>&1`, `exec >file` point the shell's descriptor at what it names at that moment (bash's manual,
// "Redirections": a duplicate is a copy of the descriptor). Inside a command substitution or a pipeline stage before
// the last, descriptor 1 is then the capture or the pipe, but the shell's fd 2 is still the stdout it copied, and a
// `exec >file` the substitution runs under does not take the substitution's output: after `exec 2>&1`,
// `x=$(ls nope)` leaves x empty and shows the message, `echo err >&2 | tr a-z A-Z` prints `err`; after `exec >f`,
// `x=$(echo hi)` sets x to hi and `echo a | tr a-z A-Z` writes `A` to f. just-bash kept `exec 2>&1` as "fd 2 is
// whatever fd 1 is now" and `exec >f` for every command, so the capture or the pipe took them. A standard descriptor
// set by `exec` now remembers the substitution depth and pipeline stage it was set in; looked up deeper in
// (a substitution inside it, or a pipeline stage before the last), an fd 1 set so is the capture or pipe as usual, and
// an fd 2 that copied fd 1 is plain stderr, which reaches the shell's fd 2 when the substitution or stage ends.
export default {
  title: 'an exec\'d stdout, or stderr copied from stdout, does not follow a command substitution\'s or pipeline stage\'s stdout',
  upstream: 'src/interpreter/redirections.ts (exec, persistent policy) and fd-table lookup: record the substitution depth and pipeline stage a standard fd was set at, and resolve fd 1 (and fd 2 duplicating fd 1) as the standard stream when looked up inside a deeper substitution or a non-last pipeline stage',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The lookup: a standard fd's entry set by exec outside the current substitution or pipeline stage.
      find: 'function tt(e,t){let n=Ps(e,t);',
      replace:
        'function _jbStdLevel(e){return(e.substitutionDepth??0)+(e.state.__jbLevel??0)}' +
        'function _jbStdOuter(e,t,n){let r=t<3?e.state.__jbStdAt?.get(t):void 0;return!!r&&r.raw===n&&(t===1||n==="__dupout__:1")&&(r.level<_jbStdLevel(e)||!!e.state.spzPipeStage&&!r.stage)}' +
        // Whether redirections point fd 1 or 2 somewhere (the body under them is one level deeper).
        'function _jbStdScope(t){return t.some(r=>!r.fdVariable&&(r.operator==="&>"||r.operator==="&>>"||[">",">>",">|",">&"].includes(r.operator)&&(r.fd??1)>0&&(r.fd??1)<3))}' +
        'async function _jbStdDeeper(e,t,f){if(!_jbStdScope(t))return f();e.state.__jbLevel=(e.state.__jbLevel??0)+1;try{return await f()}finally{e.state.__jbLevel--}}' +
        'function tt(e,t){let n=Ps(e,t);if(n!==void 0&&_jbStdOuter(e,t,n))return;',
    },
    {
      // exec's own redirections (the persistent policy) record where they were set.
      find: 'r.policy==="persistent"&&g!==null&&g<Se&&(e.state.closedStandardFds?.delete(g),lt(e,g,y))',
      replace:
        'r.policy==="persistent"&&g!==null&&g<Se&&(e.state.closedStandardFds?.delete(g),lt(e,g,y),(e.state.__jbStdAt??=new Map).set(g,{raw:Ps(e,g),level:_jbStdLevel(e),stage:!!e.state.spzPipeStage}))',
    },
    {
      // A compound command's redirections (`{ …; } 2>/dev/null`, a loop's `done >f`) apply to the commands inside.
      find: 'let l=await r(i);return await rn(e,l,t,i.targets,i.dupSources,i.standardRoutes)',
      replace: 'let l=await _jbStdDeeper(e,t,()=>r(i));return await rn(e,l,t,i.targets,i.dupSources,i.standardRoutes)',
    },
    {
      // So do a simple command's, for what a function, `eval` or `.` runs (`f 2>/dev/null`).
      find: 'try{v=await this.runCommand(u,f,d,n,!1,!1,g,y)}',
      replace: 'try{v=await _jbStdDeeper(this.ctx,t.redirections,()=>this.runCommand(u,f,d,n,!1,!1,g,y))}',
    },
  ],
};
