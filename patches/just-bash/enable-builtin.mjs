// `enable` (bash's manual, "Bash Builtin Commands"): `enable -n NAME` disables a shell builtin, so that NAME is found
// in PATH instead (`type -t echo` is `file`) or is not found (`cd`); `enable NAME` enables it again; with no name,
// `enable`/`-p` lists the enabled builtins as `enable NAME` lines, `-n` the disabled ones as `enable -n NAME`, `-a`
// all of them, `-s` only POSIX special builtins. A name that is no builtin is an error (status 1); loading builtins
// from shared objects (`-f`, `-d`) fails as it does on a sprite without the object. just-bash had no `enable`.
export default {
  title: 'enable lists, disables and re-enables shell builtins',
  upstream: 'src/interpreter/builtins: add enable (state.disabledBuiltins); builtin dispatch, command resolution, type and command -v skip a disabled builtin',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'var Bu=new Map([[":",',
      replace: [
        // bash 5.2's builtins in its own (table) order, and its POSIX special ones.
        'var _jbBuiltins=".,:,[,alias,bg,bind,break,builtin,caller,cd,command,compgen,complete,compopt,continue,declare,dirs,disown,echo,enable,eval,exec,exit,export,false,fc,fg,getopts,hash,help,history,jobs,kill,let,local,logout,mapfile,popd,printf,pushd,pwd,read,readarray,readonly,return,set,shift,shopt,source,suspend,test,times,trap,true,type,typeset,ulimit,umask,unalias,unset,wait".split(","),_jbSpecial=new Set(".,:,break,continue,eval,exec,exit,export,readonly,return,set,shift,source,times,trap,unset".split(","));',
        'function _jbEnable(e,t){let o={a:!1,n:!1,p:!1,s:!1},N=[],i=0,U="enable: usage: enable [-a] [-dnps] [-f filename] [name ...]\\n";for(;i<t.length;i++){let w=t[i];if(w==="--"){i++;break}if(!w.startsWith("-")||w==="-")break;for(let k of w.slice(1)){if(k==="f"||k==="d"){let f=k==="f"?w.endsWith("f")&&w.indexOf("f")===w.length-1?t[++i]:void 0:void 0;if(k==="f"&&f===void 0)return D(`bash: enable: -f: option requires an argument\\n${U}`,2);return k==="f"?D(`bash: enable: cannot open shared object ${f}: ${f}: cannot open shared object file: No such file or directory\\n`,1):D(`bash: enable: ${t[i+1]??""}: not dynamically loaded\\n`,1)}if(!(k in o))return D(`bash: enable: -${k}: invalid option\\n${U}`,2);o[k]=!0}}N=t.slice(i);let d=e.state.disabledBuiltins??=new Set;if(N.length===0){let r="";for(let b of _jbBuiltins){if(o.s&&!_jbSpecial.has(b))continue;let off=d.has(b);if(o.a||(o.n?off:!off))r+=off?`enable -n ${b}\\n`:`enable ${b}\\n`}return L(r,"",0)}let r="",c=0;for(let b of N){if(!_jbBuiltins.includes(b)||o.s&&!_jbSpecial.has(b)){r+=`bash: enable: ${b}: not a shell builtin\\n`,c=1;continue}o.n?d.add(b):d.delete(b)}return L("",r,c)}',
        'var Bu=new Map([[":",',
      ].join(''),
    },
    {
      find: '&&c.coverage.hit(`bash:builtin:${t}`),t==="export")',
      replace: '&&c.coverage.hit(`bash:builtin:${t}`),c.state.disabledBuiltins?.has(t)&&Fn.has(t))return null;if(t==="enable")return _jbEnable(c,n);if(t==="export")',
    },
    {
      // `builtin NAME` of a disabled builtin: not a shell builtin
      find: 'if(o!=="__just_bash_tee_restore"&&!Fn.has(o))',
      replace: 'if(o!=="__just_bash_tee_restore"&&(!Fn.has(o)||e.ctx?.state?.disabledBuiltins?.has(o)))',
    },
    {
      // type
      find: 'if(!(Fn.has(m)&&(a||!w)&&',
      replace: 'if(!(Fn.has(m)&&!e.state.disabledBuiltins?.has(m)&&(a||!w)&&',
    },
    {
      // command -v / -V
      find: 'else if(Fn.has(a))r?s+=',
      replace: 'else if(Fn.has(a)&&!e.state.disabledBuiltins?.has(a))r?s+=',
    },
  ],
};
