// `local name` / `local name=value` in a function makes a new variable that hides the global one whatever it is,
// an array included (bash's manual, "Shell Functions": local "create[s] a local variable"; variables.c
// make_local_variable starts the local empty and restores the global on return): the function's `name[1]=2` or
// `name+=(q)` change the local only. just-bash saved and hid only the global's scalar value unless `-a` was
// given, so a global array showed through the local and the function's changes to it stayed after the return (a
// global scalar even came back as an array). Here the global's array state is saved for every local and hidden (kept in view,
// as the value is, under `shopt -s localvar_inherit`).
export default {
  title: 'local hides a global array and restores it on return',
  upstream: 'src/interpreter/builtins/local.ts: save the array state of every name made local (not only with -a) and remove it from view when the local is declared without -a',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'break}}r.set(p,S),c&&i(p)}if(c&&h===void 0)Ee(e,p),zt(e,p,"indexed");', replace: 'break}}r.set(p,S),i(p),c||e.state.shoptOptions.localvar_inherit&&!l||sr(e,p)}if(c&&h===void 0)Ee(e,p),zt(e,p,"indexed");' },
  ],
};
