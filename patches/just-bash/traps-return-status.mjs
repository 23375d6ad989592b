// The RETURN trap runs when a sourced file ends by `return N` as when it reaches its end (bash's manual: "each time a
// shell function or a script executed with the . or source builtins finishes executing"), and inside the trap `$?`
// is the status of the last command run before the return (`false; return 3` shows 1), while `. file` and the
// function call still give N. just-bash skipped the trap on a sourced file's `return` and showed N as `$?`.
export default {
  title: 'RETURN trap on a sourced file\'s return, with the status before the return as $?',
  upstream: 'src/interpreter/builtins/source.ts and functions.ts: run the RETURN trap when a ReturnError ends the script or function, with $? the last status',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The trap's $? is the status it is given: the last command's, not return's N.
      find: "async function _jbReturnTrap(e,m){let t=e.state.traps?.get(\"RETURN\");if(!t?.action||e.state.inTrap||!(e.state.options.functrace||(t.depth??0)>=e.state.callDepth))return m;t.depth=0;let y=await _jbRunTrap(e,t.action,m.exitCode);",
      replace: "async function _jbReturnTrap(e,m,st=m.exitCode){let t=e.state.traps?.get(\"RETURN\");if(!t?.action||e.state.inTrap||!(e.state.options.functrace||(t.depth??0)>=e.state.callDepth))return m;t.depth=0;let y=await _jbRunTrap(e,t.action,st);",
    },
    {
      // A function left by `return N`: the trap sees the status before the return.
      find: "catch(_x){if(!(_x instanceof Te))throw _x;m=L(_x.stdout,_x.stderr,_x.exitCode)}m=await _jbReturnTrap(e,m);",
      replace: "catch(_x){if(!(_x instanceof Te))throw _x;m=L(_x.stdout,_x.stderr,_x.exitCode);var _jbRs=e.state.lastExitCode}m=await _jbReturnTrap(e,m,_jbRs);",
    },
    {
      // A sourced file left by `return N` runs the trap too (before the source frame is dropped), then `. file` gives N.
      find: "try{let c=Ge(i),u=await _jbReturnTrap(e,await e.executeScript(c));return l(),u}",
      replace: "try{let c=Ge(i),u;try{u=await _jbReturnTrap(e,await e.executeScript(c))}catch(_r){if(!(_r instanceof Te))throw _r;u=await _jbReturnTrap(e,L(_r.stdout,_r.stderr,_r.exitCode),e.state.lastExitCode)}return l(),u}",
    },
  ],
};
