// `local -` inside a function saves the shell's `set` options, and the function's return restores them (bash(1)
// "local": "If name is '-', the set of shell options is made local to the function in which local is invoked:
// shell options changed using the set builtin inside the function ... are restored to their original values when
// the function returns"): `f() { local -; set -e; }; f` leaves errexit off. just-bash took `-` for an empty option
// list, so the options leaked out, and `local -` with other locals listed them. shopt options are not saved (bash
// does not either).
export default {
  title: 'local - saves the set options and the function return restores them',
  upstream: 'src/interpreter/builtins/local.ts: `-` stores a copy of state.options on the function scope; src/interpreter/functions.ts: restore it when the scope is popped',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let r=await __jbLocalBase(e,[...(x?[`-${x.replace(/[^nap]/g,"")}`]:[]),...names].filter(d=>d!=="-"));',
      replace:
        'if(names.includes("-")&&e.state.localScopes.length>0&&(e.state.localScopes.at(-1).spzOptions??={...e.state.options},!x&&names.every(d=>d==="-")))return L("","",0);' +
        'let r=await __jbLocalBase(e,[...(x?[`-${x.replace(/[^nap]/g,"")}`]:[]),...names].filter(d=>d!=="-"));',
    },
    {
      find: 'let p=e.state.localScopes.length-1,h=e.state.localScopes.pop(),m=e.state.localArrayScopes?.pop();',
      replace: 'let p=e.state.localScopes.length-1,h=e.state.localScopes.pop(),m=e.state.localArrayScopes?.pop();h?.spzOptions&&Object.assign(e.state.options,h.spzOptions);',
    },
  ],
};
