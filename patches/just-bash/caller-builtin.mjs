// `caller [N]` names the caller of the running function: `LINE FILE`, or with N `LINE FUNCTION FILE` for frame N,
// status 0; outside a function (or past the last frame) it prints nothing and returns 1. Bash's manual, "Bash
// Builtin Commands" (caller); a `bash -c` script's top-level frame is named `environment` and has no `main` frame,
// as bash 5.2 names them.
// just-bash listed caller as a builtin but had none (command not found, 127).
export default {
  title: 'the caller builtin',
  upstream: 'src/interpreter/builtins: add caller (frame N from callLineStack, funcNameStack, sourceStack; status 1 outside a function)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(t==="hash")return Wo(c,n);',
      replace: 'if(t==="hash")return Wo(c,n);if(t==="caller"){if(n.length>0&&!/^\\d+$/.test(n[0]))return D(`bash: line ${c.state.currentLine}: caller: ${n[0]}: invalid number\\ncaller: usage: caller [expr]\\n`,2);let k=n.length>0?Number(n[0]):0,_f=c.state.currentSource&&c.state.currentSource!=="main";if(k>=c.state.callDepth||c.state.callLineStack?.[k]===void 0||n.length>0&&c.state.funcNameStack?.[k+1]===void 0&&!_f)return L("","",1);let src=c.state.sourceStack?.[k+1]??(c.state.currentSource&&c.state.currentSource!=="main"?c.state.currentSource:"environment");src==="main"&&(src="environment");return L(n.length>0?`${c.state.callLineStack[k]} ${c.state.funcNameStack?.[k+1]??"main"} ${src}\\n`:`${c.state.callLineStack[k]} ${src}\\n`,"",0)}',
    },
  ],
};
