// `local -` inside a function saves the shell's single-letter options and `set -o` options, and the function's
// return restores them (bash(1) "local": "If name is -, the set of shell options is made local to the function in
// which local is invoked: shell options changed using the set builtin inside the function are restored to their
// original values when the function returns"), the usual way a helper turns on `set -x` or `set +e` for itself.
// just-bash read `-` as an empty option list: it printed the function's locals and left the options changed.
export default {
  title: '`local -` makes the set options local to the function',
  upstream: 'src/interpreter/builtins/local.ts: on "-" (an operand), keep a copy of state.options with the current local scope; src/interpreter/functions.ts (scope cleanup): restore it and SHELLOPTS when the scope is popped',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let r=await __jbLocalBase(e,[...(x?[`-${x.replace(/[^nap]/g,"")}`]:[]),...names].filter(d=>d!=="-"));',
      replace: 'if(names.includes("-")&&e.state.localScopes.length>0){e.state.localScopes.at(-1).spzOpts??={...e.state.options};if(!x&&names.every(d=>d==="-"))return L("","",0)}let r=await __jbLocalBase(e,[...(x?[`-${x.replace(/[^nap]/g,"")}`]:[]),...names].filter(d=>d!=="-"));',
    },
    {
      find: 'h=e.state.localScopes.pop(),m=e.state.localArrayScopes?.pop();',
      replace: 'h=e.state.localScopes.pop(),m=e.state.localArrayScopes?.pop();h?.spzOpts&&(Object.assign(e.state.options,h.spzOpts),e.state.env.set("SHELLOPTS",si(e.state.options)));',
    },
  ],
};
