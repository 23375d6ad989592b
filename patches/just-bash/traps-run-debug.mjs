// `trap '…' DEBUG` runs its command before each simple command (assignments too), `[[ … ]]`, `(( … ))`, `case`
// and each pass of a `for` loop's head, with
// `$BASH_COMMAND` the command about to run and `$?` the status of the one before; not inside a trap, and not inside
// a function, a subshell or a command substitution unless `set -T` (functrace) is on. Its output comes before the
// command's (for a pipeline, before the last stage's: the stages' traps run in the shell, not down the pipe). Bash's manual, "Bourne Shell Builtins" (trap), "The Set Builtin" (-T), "Bash Variables"
// (BASH_COMMAND). Applies after traps-in-shell (file-name order), whose trap runner and output queue it uses.
export default {
  title: 'the DEBUG trap runs before each simple command, [[ ]] and (( ))',
  upstream: 'src/interpreter: executeSimpleCommandInner and executeCommand (for ConditionalCommand and ArithmeticCommand) run the DEBUG trap first (not in a trap; in a function or subshell only under functrace); $BASH_COMMAND serializes a compound command too',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function _jbReturnTrap(e,m,st=m.exitCode){',
      // The trap's output waits in the trap-output queue, which the command about to run shows first (or the end
      // of the statement, for `exit`/`return`, which end it by throwing).
      replace: 'async function _jbDebugTrap(e,t){let d=e.state.traps?.get("DEBUG");if(!d?.action||e.state.inTrap||e.state.callDepth>0&&!e.state.options.functrace)return;e.state.currentCommand=t,t.line!==void 0&&(e.state.currentLine=t.line);let ps=e.state.spzPipeStage,y;e.state.spzPipeStage=void 0;try{y=await _jbRunTrap(e,d.action,e.state.lastExitCode)}finally{e.state.spzPipeStage=ps}_jbKeepTrapOutput(e,y)}async function _jbReturnTrap(e,m,st=m.exitCode){',
    },
    {
      find: 'async executeSimpleCommandInner(t,n,r){let _po=',
      replace: 'async executeSimpleCommandInner(t,n,r){await _jbDebugTrap(this.ctx,t);let _po=',
    },
    {
      // A command substitution starts with no trap output waiting: what its command's DEBUG trap printed (`x=$(…)`,
      // an assignment that shows nothing itself) waits outside it for the next command, and the substitution's own
      // traps' output goes into what it captures.
      find: 'let a=e.substitutionDepth;e.substitutionDepth=i+1;let _tr=e.state.traps;',
      replace: 'let a=e.substitutionDepth;e.substitutionDepth=i+1;let _tr=e.state.traps,_to=e.state.trapOutput;e.state.trapOutput=void 0;',
    },
    {
      find: 'p=await _jbWithExitTrap(e,p),h=p.exitCode,e.state.traps=_tr,',
      replace: 'p=await _jbWithExitTrap(e,p),h=p.exitCode,e.state.traps=_tr,e.state.trapOutput=_to,',
    },
    {
      find: 'catch(p){if(e.state.traps=_tr,',
      replace: 'catch(p){if(e.state.traps=_tr,e.state.trapOutput=_to,',
    },
    {
      // `case WORD in` (as bash prints it, with a space after `in`) before the word is matched.
      find: 'case"Case":return bf(this.ctx,t)',
      replace: 'case"Case":return await _jbDebugTrap(this.ctx,{type:"CaseHead",_text:`case ${we(t.word)} in `,line:t.line}),bf(this.ctx,t)',
    },
    {
      find: 'case"ArithmeticCommand":return this.executeArithmeticCommand(t)',
      replace: 'case"ArithmeticCommand":return await _jbDebugTrap(this.ctx,t),this.executeArithmeticCommand(t)',
    },
    {
      find: 'case"ConditionalCommand":return this.executeConditionalCommand(t)',
      replace: 'case"ConditionalCommand":return await _jbDebugTrap(this.ctx,t),this.executeConditionalCommand(t)',
    },
    {
      // Trap output waiting in a pipeline's stage other than the last is the shell's, not the stage's: the last
      // stage (run in the shell) shows it, so that it does not go down the pipe.
      find: 'function _jbTakeTrapOutput(e){let b=e.state.trapOutput;if(!b||',
      replace: 'function _jbTakeTrapOutput(e){let b=e.state.trapOutput;if(!b||e.state.spzPipeStage||',
    },
    {
      // A for loop's head, `for NAME in WORDS` as written, before each pass.
      find: 'e.state.env.set(t.variable,o);try{',
      replace: 'await _jbDebugTrap(e,{type:"ForHead",_text:t.words===null?`for ${t.variable}`:`for ${t.variable} in ${t.words.map(we).join(" ")}`,line:t.line});e.state.env.set(t.variable,o);try{',
    },
    {
      // Under functrace a function's body starts with the trap once more, for the call (bash's function entry).
      find: 'let p=f.stdin??r,h=i||f.stdin!==void 0||r!=="",m;try{',
      replace: 'let p=f.stdin??r,h=i||f.stdin!==void 0||r!=="",m,_dq;e.state.options.functrace&&e.state.currentCommand&&(await _jbDebugTrap(e,e.state.currentCommand),_dq=_jbTakeTrapOutput(e));try{',
    },
    {
      find: 'm=await _jbReturnTrap(e,m,_jbRs);return rn(',
      replace: 'm=await _jbReturnTrap(e,m,_jbRs);_dq&&(m={...m,stdout:_dq.stdout+m.stdout,stderr:_dq.stderr+m.stderr});return rn(',
    },
    {
      // `[[ … ]]` and `(( … ))` are what $BASH_COMMAND names while their DEBUG trap runs.
      find: 'case"BASH_COMMAND":{let c=e.state.currentCommand,h=e.state.hiddenRedirections;return c?zd(',
      replace: 'case"BASH_COMMAND":{let c=e.state.currentCommand,h=e.state.hiddenRedirections;return c?._text!==void 0?c._text:c&&c.type!=="SimpleCommand"?El(c):c?zd(',
    },
    {
      // A subshell or command substitution keeps DEBUG under functrace, as it keeps RETURN.
      find: 'k==="RETURN"&&e.state.options.functrace',
      replace: '(k==="RETURN"||k==="DEBUG")&&e.state.options.functrace',
    },
  ],
};
