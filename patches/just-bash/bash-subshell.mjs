// $BASH_SUBSHELL counts the subshells around the running command: each `( … )` and each command substitution adds
// one (a pipeline stage does not, as bash 5.2 counts). Bash's manual, "Bash Variables" (BASH_SUBSHELL); just-bash
// left it unset.
export default {
  title: '$BASH_SUBSHELL',
  upstream: 'src/interpreter/expansion/variable.ts getVariable: BASH_SUBSHELL = command substitution depth + ( ) subshell depth (kept on the state by executeSubshell)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"BASHPID":return String(e.state.bashPid);',
      replace: 'case"BASHPID":return String(e.state.bashPid);case"BASH_SUBSHELL":return String((e.substitutionDepth??0)+(e.state.subshellLevel??0));',
    },
    {
      find: 'e.state.parentHasLoopContext=i>0,e.state.loopDepth=0,e.state.bashPid=e.state.nextVirtualPid++;try{return await nt(',
      replace: 'e.state.parentHasLoopContext=i>0,e.state.loopDepth=0,e.state.bashPid=e.state.nextVirtualPid++;let _sl=e.state.subshellLevel??0;e.state.subshellLevel=_sl+1;try{return await nt(',
    },
    {
      find: '}finally{let l=new Map;for(let[c,u]of o){',
      replace: '}finally{e.state.subshellLevel=_sl;let l=new Map;for(let[c,u]of o){',
    },
  ],
};
