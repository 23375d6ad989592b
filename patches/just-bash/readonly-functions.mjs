// `readonly -f NAME…` makes functions read-only (bash's manual, "Bash Builtin Commands": readonly): defining one
// again fails (`f: readonly function`, status 1, the script goes on) and so does `unset -f` of it; a NAME that is no
// function is `readonly: NAME: not a function`, status 1; `readonly -f` alone prints each read-only function
// followed by `declare -fr NAME`, and `declare -F`/`export -f` show the `r`. just-bash ignored `-f` and made a
// variable of each NAME read-only, so `readonly -f` listed variables.
export default {
  title: 'readonly -f makes functions read-only',
  upstream: 'src/interpreter/builtins/readonly.ts (-f: mark functions, list them with -f alone), the function definition and unset -f (refuse a read-only function), declare -F and export -f (show -fr)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Io(e,t){',
      replace:
        'function __jbFnFlags(e,k){return`-f${e.state.readonlyFuncs?.has(k)?"r":""}${e.state.exportedFuncs?.has(k)?"x":""}`}' +
        'function __jbReadonlyF(e,t){let names=[];for(let o of t)/^-[aApf]+$/.test(o)||o==="--"||names.push(o);let r=e.state.readonlyFuncs??=new Set;' +
        'if(names.length===0){let s="";for(let k of[...r].sort())e.state.functions.has(k)&&(s+=__jbFnText(k,e.state.functions.get(k))+`declare ${__jbFnFlags(e,k)} ${k}\\n`);return ee(s)}' +
        'let err="",st=0;for(let k of names)e.state.functions.has(k)?r.add(k):(err+=`bash: readonly: ${k}: not a function\\n`,st=1);return L("",err,st)}' +
        'async function Io(e,t){if(t.some(o=>/^-[aAp]*f[aApf]*$/.test(o)))return __jbReadonlyF(e,t);',
    },
    {
      find: 'function Pu(e,t){',
      // The message goes where the shell's stderr goes (after `exec 2>&1`, to stdout), as a command's own would.
      replace: 'function Pu(e,t){if(e.state.readonlyFuncs?.has(t.name))return rn(e,L("",__jbPlace(e,`bash: ${t.name}: readonly function\\n`),1),[],new Map,new Map,new Map);',
    },
    {
      find: 'if(n==="function"){e.state.functions.delete(i);continue}',
      replace: 'if(n==="function"){if(e.state.readonlyFuncs?.has(i)&&e.state.functions.has(i)){r+=`bash: unset: ${i}: cannot unset: readonly function\\n`,s=1;continue}e.state.functions.delete(i);continue}',
    },
    {
      find: 'for(let q of R)V+=`declare -f${e.state.exportedFuncs?.has(q)?"x":""} ${q}\n`;',
      replace: 'for(let q of R)V+=`declare ${__jbFnFlags(e,q)} ${q}\n`;',
    },
    {
      find: 'e.state.functions.get(k))+`declare -fx ${k}\\n`);return ee(s)}',
      replace: 'e.state.functions.get(k))+`declare ${__jbFnFlags(e,k)} ${k}\\n`);return ee(s)}',
    },
  ],
};
