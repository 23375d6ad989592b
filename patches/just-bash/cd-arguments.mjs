// cd reads its arguments as bash's cd.def does: options -L, -P, -e, -@ (also joined, `-LP`), `--` ending them, `-`
// an operand; any other option is `cd: -Q: invalid option` plus the usage line, status 2; more than one directory
// is `cd: too many arguments`, status 1; no directory goes to $HOME (`cd: HOME not set` when unset, nothing when
// empty); `cd -` goes to $OLDPWD (`cd: OLDPWD not set` when unset) and prints it (an empty OLDPWD: an empty line,
// and it stays); `cd ""` does nothing. Bash's manual, "Bourne Shell Builtins" (cd). just-bash skipped unknown options, used the first of several directories,
// went to / without HOME and to a remembered directory without OLDPWD.
export default {
  title: 'cd: bash\'s options, too many arguments, HOME/OLDPWD not set',
  upstream: 'src/interpreter/builtins/cd.ts handleCd: parse -L/-P/-e/-@ (joined too), reject other options with the usage (2), reject a second operand (1), HOME and OLDPWD from the variables with "not set" errors, an empty operand a no-op',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'async function Ki(e,t){let n,r=!1,s=!1,i=0;for(;i<t.length;)if(t[i]==="--"){i++;break}else if(t[i]==="-L")s=!1,i++;else if(t[i]==="-P")s=!0,i++;else if(t[i].startsWith("-")&&t[i]!=="-")i++;else break;let o=t.slice(i);if(o.length===0||o[0]==="~"?n=e.state.env.get("HOME")||"/":o[0]==="-"?(n=e.state.previousDir,r=!0):n=o[0],',
      replace: 'async function Ki(e,t){let n,r=!1,s=!1,i=0;for(;i<t.length;){let _a=t[i];if(_a==="--"){i++;break}if(!_a.startsWith("-")||_a==="-")break;let _b=[..._a.slice(1)].find(_c=>!"LPe@".includes(_c));if(_b!==void 0)return L("",`bash: cd: -${_b}: invalid option\\ncd: usage: cd [-L|[-P [-e]] [-@]] [dir]\\n`,2);for(let _c of _a.slice(1))_c==="L"?s=!1:_c==="P"&&(s=!0);i++}let o=t.slice(i);' +
        'if(o.length>1)return D("bash: cd: too many arguments\\n");if(o.length===0&&!e.state.env.has("HOME"))return D("bash: cd: HOME not set\\n");if(o[0]==="-"&&!e.state.env.has("OLDPWD"))return D("bash: cd: OLDPWD not set\\n");if((o.length===0?e.state.env.get("HOME"):o[0])==="")return ne;if(o[0]==="-"&&e.state.env.get("OLDPWD")==="")return L("\\n","",0);' +
        'if(o.length===0?n=e.state.env.get("HOME"):o[0]==="-"?(n=e.state.env.get("OLDPWD"),r=!0):n=o[0],',
    },
  ],
};
