// The trace attribute (bash's manual, "Bash Builtin Commands", declare -t): `declare -t NAME` gives a variable or,
// with `-f`, a function the trace attribute (a traced function inherits the DEBUG and RETURN traps; on a variable it
// has no effect), `+t` takes it off, and `declare -p` shows it in bash's attribute order (`declare -rt y`,
// `declare -ftx f`; `declare -pf f` prints the function's attributes after its text when it has any, as for `-fr`).
// just-bash refused `-t` as an invalid option.
// @deviation the attribute is kept and listed; DEBUG and RETURN traps do not look at it.
export default {
  title: 'declare -t / +t sets and clears the trace attribute, which declare -p lists',
  upstream: 'src/interpreter/builtins/declare.ts: parse -t/+t (state.traceVars, state.traceFuncs); declare-print.ts: t after r in the attribute letters; declare -pf prints a function\'s attributes',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'b=!1,g=[],_off=new Set;', replace: 'b=!1,g=[],_off=new Set,_tr=!1;' },
    { find: 'else if($==="-i")d=!0;', replace: 'else if($==="-t")_tr=!0;else if($==="-i")d=!0;' },
    { find: 'else if(R==="g")b=!0;else return L(""', replace: 'else if(R==="g")b=!0;else if(R==="t")_tr=!0;else return L(""' },
    { find: 'else if(R==="i"||R==="l"||R==="u")_off.add(R);', replace: 'else if(R==="i"||R==="l"||R==="u"||R==="t")_off.add(R);' },
    {
      find: 'let S=e.state.localScopes.length>0&&!b,v=P=>{',
      replace:
        'if(_tr||_off.has("t")){let T=m?e.state.traceFuncs??=new Set:e.state.traceVars??=new Set;for(let P of g){let O=m?P:/^[a-zA-Z_][a-zA-Z0-9_]*/.exec(P)?.[0];O&&(m&&!e.state.functions.has(O)||(_tr?T.add(O):T.delete(O)))}' +
        'if(m&&!(o||f||i||a))return L("","",g.every(P=>e.state.functions.has(P))?0:1);if(!m&&g.length===0&&!(a||o||i||l||r||s||d||p||h))return ee(_tr?[...e.state.traceVars].sort().map(P=>spzDeclLine(e,P)??"").join(""):"")}' +
        'let S=e.state.localScopes.length>0&&!b,v=P=>{',
    },
    {
      find: '(e.state.readonlyVars?.has(i)?"r":"")+(e.state.exportedVars?.has(i)?"x":"")',
      replace: '(e.state.readonlyVars?.has(i)?"r":"")+(e.state.traceVars?.has(i)?"t":"")+(e.state.exportedVars?.has(i)?"x":"")',
    },
    {
      find: '`-f${e.state.readonlyFuncs?.has(k)?"r":""}${e.state.exportedFuncs?.has(k)?"x":""}`',
      replace: '`-f${e.state.readonlyFuncs?.has(k)?"r":""}${e.state.traceFuncs?.has(k)?"t":""}${e.state.exportedFuncs?.has(k)?"x":""}`',
    },
    {
      find: 'for(let $ of g)e.state.functions.has($)?O+=__jbFnText($,e.state.functions.get($)):P=!1;return L(O,"",P?0:1)}',
      replace: 'for(let $ of g)e.state.functions.has($)?(O+=__jbFnText($,e.state.functions.get($)),a&&__jbFnFlags(e,$)!=="-f"&&(O+=`declare ${__jbFnFlags(e,$)} ${$}\\n`)):P=!1;return L(O,"",P?0:1)}',
    },
  ],
};
