// `export -f NAME…` marks functions for export: a child shell defines them (bash passes each in the environment as
// `BASH_FUNC_NAME%%=() { … }`, which `env` shows); `export -nf NAME` takes the mark off; `export -f` alone prints
// each exported function followed by `declare -fx NAME`; a NAME that is no function is `export: NAME: not a
// function`, status 1; `declare -F` lists an exported function as `declare -fx NAME`. Bash's manual, "Bash Builtin
// Commands" (export) and "Environment". just-bash took `-f` for a variable name (`not a valid identifier`).
// The child side (defining the functions of BASH_FUNC_NAME%% variables) is the shell command's
// (src/server/machines/memory/shell/shell-command.ts).
export default {
  title: 'export -f exports functions',
  upstream: 'src/interpreter/builtins/export.ts (handleExport): accept -f (and -n with it) for functions, keep BASH_FUNC_NAME%% in the exported environment; declare.ts -F shows -fx for an exported function',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'function Bo(e,t){let n=!1,r=[];',
      replace:
        'function __jbExportF(e,t){let un=!1,names=[];for(let o of t){if(/^-[nfp]+$/.test(o)){o.includes("n")&&(un=!0);continue}o!=="--"&&names.push(o)}' +
        'let x=e.state.exportedFuncs??=new Set;if(names.length===0){let s="";for(let k of [...x].sort())e.state.functions.has(k)&&(s+=__jbFnText(k,e.state.functions.get(k))+`declare -fx ${k}\\n`);return ee(s)}' +
        'let err="",st=0;for(let k of names){if(!e.state.functions.has(k)){err+=`bash: export: ${k}: not a function\\n`,st=1;continue}let key=`BASH_FUNC_${k}%%`;' +
        'if(un){x.delete(k),e.state.env.delete(key),e.state.exportedVars?.delete(key);continue}x.add(k);' +
        'let txt=__jbFnText(k,e.state.functions.get(k)).slice(k.length+1).replace(/\\n[ \\t]+/g,"\\n ").replace(/^\\(\\) \\n\\{ \\n/,"() { ").replace(/\\n$/,"");' +
        'e.state.env.set(key,txt),(e.state.exportedVars??=new Set).add(key)}return L("",err,st)}' +
        'function Bo(e,t){if(t.some(o=>/^-[np]*f[nfp]*$/.test(o)))return __jbExportF(e,t);let n=!1,r=[];',
    },
    {
      find: 'for(let q of R)V+=`declare -f ${q}\n`;',
      replace: 'for(let q of R)V+=`declare -f${e.state.exportedFuncs?.has(q)?"x":""} ${q}\n`;',
    },
  ],
};
