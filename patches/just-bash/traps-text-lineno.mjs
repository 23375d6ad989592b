// In an EXIT trap or a signal's trap, `$LINENO` counts the lines of the trap's own text from 1 (`trap 'echo
// $LINENO' EXIT` prints 1 wherever the trap was set or the shell ended; a second line of the text is 2): bash runs
// those traps through parse_and_execute as a fresh piece of text, with its line counter reset (trap.c,
// run_exit_trap / _run_trap_internal). The ERR, RETURN and DEBUG traps keep the line of the command that fired
// them (measured). just-bash counted every trap's lines from the current line.
export default {
  title: '$LINENO in an EXIT or signal trap counts the trap text\'s own lines',
  upstream: 'src/interpreter (trap execution): parse an EXIT or signal trap\'s text with lines from 1, not shifted to the current line as for ERR, RETURN and DEBUG traps',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'async function _jbRunTrap(e,a,s){', replace: 'async function _jbRunTrap(e,a,s,own){' },
    { find: 'return _jbShiftLines(q,(cl||1)-1),await e.executeScript(q)', replace: 'return _jbShiftLines(q,own?0:(cl||1)-1),await e.executeScript(q)' },
    { find: 'y=await _jbRunTrap(e,t.action,c)}catch(w){', replace: 'y=await _jbRunTrap(e,t.action,c,!0)}catch(w){' },
    { find: 'let y=await _jbRunTrap(e,t.action,e.state.lastExitCode);o.stdout+=', replace: 'let y=await _jbRunTrap(e,t.action,e.state.lastExitCode,!0);o.stdout+=' },
  ],
};
