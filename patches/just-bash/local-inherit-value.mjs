// With `shopt -s localvar_inherit`, `local NAME` without a value keeps the value (and the attributes, which this
// interpreter keeps by name) of the variable NAME visible from the calling scope, instead of starting unset; a
// nameref (`local -n`) inherits nothing. Bash's manual, "The Shopt Builtin" (localvar_inherit). just-bash listed the
// option and ignored it: `local x` always unset x.
export default {
  title: 'shopt -s localvar_inherit: local NAME keeps the calling scope\'s value',
  upstream: 'src/interpreter/builtins/local.ts (handleLocal): when localvar_inherit is set and the declaration has no value (and no -n), do not unset the variable after saving it in the scope',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: '!y&&!S&&e.state.env.delete(p)}Jt(e,p),l&&Dt(e,p)}return L("",o,a)}',
      replace: '!y&&!S&&!(e.state.shoptOptions.localvar_inherit&&!l)&&e.state.env.delete(p)}Jt(e,p),l&&Dt(e,p)}return L("",o,a)}',
    },
  ],
};
