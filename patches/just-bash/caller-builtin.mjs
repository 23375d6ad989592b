// `caller [N]` names a caller from the call stack FUNCNAME, BASH_SOURCE and BASH_LINENO describe (patch
// call-stack-frames): without N `${BASH_LINENO[0]} ${BASH_SOURCE[1]}` (`NULL` for a frame that is not there; status
// 1 when there is no frame at all), with N `${BASH_LINENO[N]} ${FUNCNAME[N+1]} ${BASH_SOURCE[N+1]}`, status 1 past the
// last frame. A script run as `bash FILE` has a bottom frame `main` (`2 main t.sh`); a `bash -c` string has none, so
// `caller 0` in its function prints nothing and returns 1. Bash's manual, "Bash Builtin Commands" (caller); bash's
// builtins/caller.def.
// just-bash listed caller as a builtin but had none (command not found, 127).
export default {
  title: 'the caller builtin',
  upstream: 'src/interpreter/builtins: add caller (frame N from callLineStack, funcNameStack, sourceStack; status 1 outside a function)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(t==="hash")return Wo(c,n);',
      replace: 'if(t==="hash")return Wo(c,n);if(t==="caller"){if(n.length>0&&!/^\\d+$/.test(n[0]))return D(`bash: line ${c.state.currentLine}: caller: ${n[0]}: invalid number\\ncaller: usage: caller [expr]\\n`,2);let F=__jbFrames(c);if(n.length===0)return F.length===0?L("","",1):L(`${F[0].line} ${F[1]?.src??"NULL"}\\n`,"",0);let k=Number(n[0]),A=F[k],B=F[k+1];return A&&B?L(`${A.line} ${B.name} ${B.src}\\n`,"",0):L("","",1)}',
    },
  ],
};
