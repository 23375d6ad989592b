// A command substitution does not inherit `set -e` (outside POSIX mode; bash's `inherit_errexit` is off by
// default): `x=$(false; echo inner)` sets x to `inner`. Bash's manual, "Command Execution Environment" and "The
// Shopt Builtin" (inherit_errexit, an option of shopt-options); just-bash ran the substitution with errexit on and
// so cut its output short.
export default {
  title: 'a command substitution runs without set -e (bash default mode), with it under shopt -s inherit_errexit',
  upstream: 'src/interpreter/expansion.ts expandPart, case "CommandSubstitution": clear state.options.errexit around executeScript(body) unless options.posix or shopt inherit_errexit, and restore it afterwards',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'e.state.suppressVerbose=!0;try{let p=await e.executeScript(t.body),h=p.exitCode;',
      replace: 'e.state.suppressVerbose=!0;let _ee=e.state.options.errexit;e.state.options.posix||e.state.shoptOptions.inherit_errexit||(e.state.options.errexit=!1);try{let p=await e.executeScript(t.body).finally(()=>{e.state.options.errexit=_ee}),h=p.exitCode;',
    },
  ],
};
