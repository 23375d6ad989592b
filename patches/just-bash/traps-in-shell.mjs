// Traps that fire inside the shell run there, in the shell's own context (its functions, variables and `$?`):
// - ERR after a command fails, under the same conditions as `set -e` (not in an if/while test, not before && / ||,
//   not after !), in functions and subshells only with `set -E` (errtrace);
// - RETURN when a function returns, for the function that set it or, with `set -T` (functrace), every function;
// - EXIT when a subshell `( … )` ends, and when the script ends (normally or by `exit`; its `exit N` sets the
//   status), with `$?` the status the shell exits with;
// - a signal the script sends itself (`kill -USR1 $$`) whose trap is set, before the command after `kill`.
// A trap's output comes out where bash prints it, `$BASH_COMMAND` names the command that fired it, and `$LINENO`
// counts from its line. A subshell or command substitution starts with no traps but the ignored ones (and
// ERR/RETURN under -E/-T); a nested `bash -c` has its own traps and `$$`.
// The trap table and the `trap` builtin itself are the embedder's (state.traps, state.trapBuiltin: spritzer's
// job control, which also runs the traps of signals sent from outside); just-bash had no `trap` at all.
// Bash's manual, "Bourne Shell Builtins" (trap), "The Set Builtin" (-E, -T), "Command Execution Environment".
export default {
  title: 'ERR, RETURN, EXIT (script and subshell) and self-sent signal traps run inside the shell',
  upstream: 'src/interpreter: a trap table on InterpreterState (copied, reset, into subshells and command substitutions) and a "trap" builtin hook; executeStatement runs pending signal traps and ERR (errexit conditions, errtrace); callFunction runs RETURN (functrace or set in that function); executeSubshell and Bash.exec run EXIT; set -E/-T (errtrace, functrace) become real options',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // $BASH_COMMAND: the simple command running (or, in a trap, the one that fired it), as the serializer writes
      // it, without the redirections whose target starts with state.hiddenRedirections (the embedder's own).
      find: 'case"LINENO":return String(e.state.currentLine);',
      replace: 'case"LINENO":return String(e.state.currentLine);case"BASH_COMMAND":{let c=e.state.currentCommand,h=e.state.hiddenRedirections;return c?zd(h?{...c,redirections:c.redirections.filter(r=>!r.target?.parts?.every?.(p=>p.type==="Literal")||!r.target.parts.map(p=>p.value).join("").startsWith(h))}:c):""}',
    },
    {
      find: 'async executeSimpleCommandInner(t,n,r){if(t.line!==void 0&&(this.ctx.state.currentLine=t.line),',
      // A signal the shell sent itself runs its trap before the next command, whose output follows the trap's (not
      // before return/exit/break/continue, which throw: what waits goes out at the top-level statement's end).
      replace: 'async executeSimpleCommandInner(t,n,r){let _po=t.name&&!this.ctx.state.inTrap&&!/^(return|exit|break|continue)$/.test(t.name.parts?.[0]?.value??"")?await _jbBeforeCommand(this.ctx):null;if(this.ctx.state.inTrap||(this.ctx.state.currentCommand=t),t.line!==void 0&&(this.ctx.state.currentLine=t.line),',
    },
    {
      find: 'let A=o+S;if(A&&(v={...v,stderr:A+v.stderr}),',
      replace: 'let A=o+S;if(_po&&(v={...v,stdout:_po.stdout+v.stdout,stderr:_po.stderr+v.stderr}),A&&(v={...v,stderr:A+v.stderr}),',
    },
    {
      // RETURN also fires when a script run with `.`/`source` ends (at the level that set it, or under -T).
      find: 'try{let c=Ge(i),u=await e.executeScript(c);return l(),u}',
      replace: 'try{let c=Ge(i),u=await _jbReturnTrap(e,await e.executeScript(c));return l(),u}',
    },
    {
      find: '["T",null],["E",null]',
      replace: '["T","functrace"],["E","errtrace"]',
    },
    {
      find: '["functrace",null],["errtrace",null]',
      replace: '["functrace","functrace"],["errtrace","errtrace"]',
    },
    {
      find: 'if(t==="help")return Vo(c,n);',
      replace: 'if(t==="help")return Vo(c,n);if(t==="trap"&&c.state.trapBuiltin)return c.state.trapBuiltin(c.state,n);',
    },
    {
      find: 'if(this.ctx.state.errexitSafe=o||i||a,this.ctx.state.options.errexit&&r!==0&&',
      replace: 'if(this.ctx.state.errexitSafe=o||i||a,await _jbStatementTraps(this.ctx,n,r!==0&&s===t.pipelines.length-1&&!i&&!this.ctx.state.inCondition&&!a&&_jbErrCommand(t.pipelines[s]),t._top),this.ctx.state.options.errexit&&r!==0&&',
    },
    {
      find: 'let p=f.stdin??r,h=i||f.stdin!==void 0||r!=="",m=await e.executeCommand(t.body,p,h);return rn(',
      replace: 'let p=f.stdin??r,h=i||f.stdin!==void 0||r!=="",m;try{m=await e.executeCommand(t.body,p,h)}catch(_x){if(!(_x instanceof Te))throw _x;m=L(_x.stdout,_x.stderr,_x.exitCode)}m=await _jbReturnTrap(e,m);return rn(',
    },
    {
      find: 'async function Af(e,t,n,r,s=!1){',
      replace: [
        // Runs a trap's command text in the shell's context with $? = status; an `exit` in it propagates.
        // ($LINENO in it counts from the line of the command that fired it, as in bash.)
        'function _jbShiftLines(n,d){if(Array.isArray(n))for(let x of n)_jbShiftLines(x,d);else if(n&&typeof n=="object"){typeof n.line=="number"&&(n.line+=d);for(let k in n)k!=="line"&&_jbShiftLines(n[k],d)}}',
        'async function _jbRunTrap(e,a,s){let p=e.state.lastExitCode,w=e.state.inTrap,cl=e.state.currentLine;e.state.lastExitCode=s,e.state.env.set("?",String(s)),e.state.inTrap=!0;try{let q;try{q=Ge(a)}catch(z){return L("",`bash: ${z.message}\\n`,2)}return _jbShiftLines(q,(cl||1)-1),await e.executeScript(q)}finally{e.state.inTrap=w,e.state.currentLine=cl,e.state.lastExitCode=p,e.state.env.set("?",String(p))}}',
        // The traps of signals sent to the shell (state.pendingSignals), in order; "!N" is a fatal signal with no trap.
        'async function _jbPendingTraps(e,n){let q=e.state.pendingSignals,o={stdout:"",stderr:""};for(;q?.length&&!e.state.inTrap&&!e.state.traps?._subshell;){let k=q.shift();if(k.startsWith("!")){let g=Number(k.slice(1)),X=new G(128+g,"",({1:"Hangup\\n",3:"Quit\\n",6:"Aborted\\n",9:"Killed\\n",10:"User defined signal 1\\n",12:"User defined signal 2\\n",14:"Alarm clock\\n",15:"Terminated\\n"})[g]??"");throw X._signal=!0,X.prependOutput((n?.stdout??"")+o.stdout,(n?.stderr??"")+o.stderr),X}let t=e.state.traps?.get(k);if(t?.action){let y=await _jbRunTrap(e,t.action,e.state.lastExitCode);o.stdout+=y.stdout,o.stderr+=y.stderr}}return o}',
        // A trap's output inside a compound command or function waits (state.trapOutput) for the next simple command at the
        // same substitution depth, which shows it first, or for the end of the top-level statement.
        'function _jbTakeTrapOutput(e){let b=e.state.trapOutput;if(!b||b.depth!==(e.substitutionDepth??0))return null;return e.state.trapOutput=void 0,b}',
        'function _jbKeepTrapOutput(e,y){let b=e.state.trapOutput??={stdout:"",stderr:"",depth:e.substitutionDepth??0};b.stdout+=y.stdout,b.stderr+=y.stderr}',
        'async function _jbBeforeCommand(e){let b=_jbTakeTrapOutput(e),o=e.state.pendingSignals?.length?await _jbPendingTraps(e):null;return b||o?{stdout:(b?.stdout??"")+(o?.stdout??""),stderr:(b?.stderr??"")+(o?.stderr??"")}:null}',
        // After a statement: ERR when it failed; at the end of a top-level statement whose output the embedder takes
        // at once (state.topLevelOutput), what waits and the pending signals' traps. Elsewhere those wait for the
        // next simple command, so that their output keeps its place, or for the end of the script.
        'async function _jbFlushTraps(e,n){let b=_jbTakeTrapOutput(e),o=await _jbPendingTraps(e,n);return{stdout:(b?.stdout??"")+o.stdout,stderr:(b?.stderr??"")+o.stderr}}',
        'async function _jbStatementTraps(e,n,f,top){if(e.state.inTrap)return;let now=top&&!!e.state.topLevelOutput;if(now){let o=await _jbFlushTraps(e,n);n.append("stdout",o.stdout),n.append("stderr",o.stderr)}let t=e.state.traps?.get("ERR");if(f&&t?.action&&(e.state.callDepth===0||e.state.options.errtrace)){let y=await _jbRunTrap(e,t.action,e.state.lastExitCode);now?(n.append("stdout",y.stdout),n.append("stderr",y.stderr)):_jbKeepTrapOutput(e,y)}}',
        'async function _jbReturnTrap(e,m){let t=e.state.traps?.get("RETURN");if(!t?.action||e.state.inTrap||!(e.state.options.functrace||(t.depth??0)>=e.state.callDepth))return m;t.depth=0;let y=await _jbRunTrap(e,t.action,m.exitCode);return{...m,stdout:m.stdout+y.stdout,stderr:m.stderr+y.stderr}}',
        // A compound command other than a subshell does not fire ERR itself: the failed command inside it did.
        'function _jbErrCommand(p){return p.commands.length>1||!["Group","If","For","CStyleFor","While","Until","Case"].includes(p.commands[0]?.type)}',
        // (`trap -p` in it shows the parent's traps until it sets one: `saved=$(trap -p)`.)
        'function _jbSubshellTraps(e,o){let m=new Map([...o].filter(([k,v])=>v.action===""||k==="ERR"&&e.state.options.errtrace||k==="RETURN"&&e.state.options.functrace));return m._subshell=!0,m._parent=o,m}',
        // Runs a result-producing body, then the EXIT trap set during it (`$?` its status; its `exit N` wins).
        'async function _jbWithExitTrap(e,R,X){let t=e.state.traps?.get("EXIT");if(!t?.action||X?._signal){if(X)throw X;return R}let c=X?X.exitCode:R.exitCode,y,z=!1;try{y=await _jbRunTrap(e,t.action,c)}catch(w){if(!(w instanceof G))throw w;y=w,z=!0}finally{e.state.traps.get("EXIT")===t&&e.state.traps.delete("EXIT")}if(X){X.stdout+=y.stdout,X.stderr+=y.stderr,z&&(X.exitCode=y.exitCode);throw X}return{...R,stdout:R.stdout+y.stdout,stderr:R.stderr+y.stderr,exitCode:z?y.exitCode:R.exitCode}}',
        'async function _jbSubshell(e,f){let o=e.state.traps;if(!o)return f();e.state.traps=_jbSubshellTraps(e,o);try{return await _jbWithExitTrap(e,await f())}finally{e.state.traps=o}}',
        // A nested execution (a `bash -c` a command runs) is a shell of its own: its own traps (the ignored ones inherited),
        // its own EXIT, its own pid when the embedder gives one (state.startShell/endShell), so that `kill $$` in it
        // ends it alone (a pending "!N": status 128+N and the signal's description, as its parent shell prints it).
        'async function _jbTopLevel(I,S,st,d){for(let x of S.statements)x._top=!0;let _p;d>0&&st.traps&&(st.traps=new Map([...st.traps].filter(([k,v])=>v.action==="")),st.pendingSignals=[],st.exitTrapAtEnd=!0,_p=st.startShell?.(st),_p&&(st.virtualPid=st.bashPid=_p));try{let R,X=null;try{R=await I.executeScript(S)}catch(y){if(!(y instanceof G))throw y;X=y}let f=await _jbFlushTraps(I.ctx);if(X?(X.stdout+=f.stdout,X.stderr+=f.stderr):R={...R,stdout:R.stdout+f.stdout,stderr:R.stderr+f.stderr},!st.exitTrapAtEnd){if(X)throw X;return R}return await _jbWithExitTrap(I.ctx,R,X)}finally{_p&&st.endShell?.(_p)}}',
        'async function Af(e,t,n,r,s=!1){',
      ].join(''),
    },
    {
      find: 'l=>Om(e,t,l.stdin??n,r,s||l.stdin!==void 0))',
      replace: 'l=>_jbSubshell(e,()=>Om(e,t,l.stdin??n,r,s||l.stdin!==void 0)))',
    },
    {
      find: 'N=await new kr(k,m).executeScript(S);',
      replace: 'N=await _jbTopLevel(new kr(k,m),S,m,s);',
    },
    {
      find: 'let a=e.substitutionDepth;e.substitutionDepth=i+1;',
      replace: 'let a=e.substitutionDepth;e.substitutionDepth=i+1;let _tr=e.state.traps;_tr&&(e.state.traps=_jbSubshellTraps(e,_tr));',
    },
    {
      find: 'e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.suppressVerbose=d,e.state.lastExitCode=h,',
      replace: 'p=await _jbWithExitTrap(e,p),h=p.exitCode,e.state.traps=_tr,e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.suppressVerbose=d,e.state.lastExitCode=h,',
    },
    {
      find: 'catch(p){if(e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.bashPid=l,e.substitutionDepth=a,e.state.suppressVerbose=d,p instanceof x)throw p;',
      replace: 'catch(p){if(e.state.traps=_tr,e.state.env=c,e.state.arrays=u,e.state.cwd=f,e.state.bashPid=l,e.substitutionDepth=a,e.state.suppressVerbose=d,p instanceof x)throw p;',
    },
  ],
};
