// What an ERR trap prints inside a command substitution (`set -E; x=$(false)`) is part of that substitution's output
// (bash runs the trap in the substitution's subshell: x holds it). just-bash kept the output of a trap run by the
// substitution's last command for a later statement of the substitution that never came, and that leftover then
// swallowed every later trap's output in the shell (`set -E; f() { x=$(false); }; f; false` printed nothing).
export default {
  title: "a command substitution's trap output is its own output",
  upstream: 'src/interpreter/expansion (command substitution): append the trap output still pending at the end of the substitution to its stdout/stderr',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let p=await e.executeScript(t.body).finally(()=>{e.state.options.errexit=_ee}),h=p.exitCode;p=await _jbWithExitTrap(e,p)',
      replace: 'let p=await e.executeScript(t.body).finally(()=>{e.state.options.errexit=_ee}),h=p.exitCode,_jbKt=_jbTakeTrapOutput(e);_jbKt&&(p={...p,stdout:p.stdout+_jbKt.stdout,stderr:p.stderr+_jbKt.stderr});p=await _jbWithExitTrap(e,p)',
    },
    {
      // A substitution ended by an error or `exit`: its pending trap output must not outlive it either.
      find: '}catch(p){if(e.state.traps=_tr,e.state.trapOutput=_to,e.state.env=c,',
      replace: '}catch(p){if(_jbTakeTrapOutput(e),e.state.traps=_tr,e.state.trapOutput=_to,e.state.env=c,',
    },
  ],
};
