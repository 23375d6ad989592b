// Under `set -e` a function call that returns non-zero ends the shell even when that status came from an `&&`/`||`
// list inside the function: `f() { [ -f x ] && echo yes; }; f` stops the script. The call is a simple command of its
// own; only the list inside the body was exempt. Bash's manual, "The Set Builtin" (-e). just-bash let the body's
// exemption leak out of the call, as it rightly does for a `{ …; }` group.
export default {
  title: 'set -e: a function returning non-zero from an && list inside it still ends the shell',
  upstream: 'src/interpreter/functions.ts callFunction (cleanup): clear state.errexitSafe when the call returns, so the caller judges the call by its status',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'e.state.sourceStack?.shift(),e.state.callDepth--}',
      replace: 'e.state.sourceStack?.shift(),e.state.callDepth--,e.state.errexitSafe=!1}',
    },
  ],
};
