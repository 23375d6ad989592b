// `unset -n NAME` unsets the nameref NAME itself, not the variable it refers to (bash(1) "unset": "If the -n option
// is supplied, and name is a variable with the nameref attribute, name will be unset rather than the variable it
// references"); a NAME without the attribute is unset as usual. just-bash did not know `-n` (`unset: -n: not a
// valid identifier`).
export default {
  title: '`unset -n` unsets a nameref itself',
  upstream: 'src/interpreter/builtins/unset.ts: accept -n; for each name, drop the nameref attribute before unsetting the variable by its own name',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Jo(e,t){let n="both",r="",s=0;for(let i of t){if(i==="-v"){n="variable";continue}',
      replace: 'async function Jo(e,t){let n="both",r="",s=0,Zn=!1;for(let i of t){if(i==="-v"){n="variable";continue}if(i==="-n"){n="variable",Zn=!0;continue}Zn&&ue(e,i)&&Tl(e,i);',
    },
  ],
};
