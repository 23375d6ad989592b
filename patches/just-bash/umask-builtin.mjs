// `umask [-p] [-S] [mode]` as bash's builtin (bash's manual, "Bourne Shell Builtins"; bash's umask.def): the mask is
// shell state, 0022 when the process starts; a change in a subshell, a command substitution or a pipeline stage
// stays there, and a program the shell runs (a `bash -c`) starts with the shell's mask. It is kept in the shell's
// variable table under `%umask`, a name no variable can have (so no listing shows it), because every kind of
// subshell already saves and restores that table. An octal mode (up to 07777) or a
// symbolic one (`u=rwx,g=rx,o=`, `g-w`, `a+r`: who is u, g, o or a, the operator + - =, the permissions r w x) sets
// it; without one it prints `0022` (`-S`: `u=rwx,g=rx,o=rx`, `-p`: as a command that sets it again); `-S` with a
// mode prints the new mask. Errors as bash words them: `8: octal number out of range`, `` `z': invalid symbolic mode
// character``, `` `X': invalid symbolic mode operator`` (status 1), an unknown option (status 2).
// Every simple command hands the mask of the shell running it to the filesystem (`fs.umask`, when the filesystem
// has one), which gives new files `0666 & ~mask` and new directories `0777 & ~mask`.
// just-bash had no umask (files and directories got fixed modes).
export default {
  title: 'the umask builtin, as shell state the filesystem applies to new files and directories',
  upstream: 'src/interpreter/builtins: add umask (kept with the shell variables so every subshell restores it, passed to nested executions; octal and symbolic modes, -p, -S), and let the filesystem read the running shell\'s mask',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The builtin, dispatched before any other.
      find: 'async function df(e,t,n,r,s,i,o,a,l=!1){',
      replace:
        'function __jbUmask(c,n){let N=c.state.currentLine,F=m=>D(`bash: line ${N}: umask: ${m}\\n`,1),S=!1,P=!1,i=0;' +
        'for(;i<n.length&&/^-./.test(n[i]);i++){if(n[i]==="--"){i++;break}for(let h of n[i].slice(1))if(h==="S")S=!0;else if(h==="p")P=!0;else return D(`bash: line ${N}: umask: -${h}: invalid option\\numask: usage: umask [-p] [-S] [mode]\\n`,2)}' +
        'let sym=m=>{let p=~m&511,f=s=>(p>>s&4?"r":"")+(p>>s&2?"w":"")+(p>>s&1?"x":"");return`u=${f(6)},g=${f(3)},o=${f(0)}\\n`},cur=__jbUm(c);' +
        'if(i>=n.length)return L(`${P?S?"umask -S ":"umask ":""}${S?sym(cur):cur.toString(8).padStart(4,"0")+"\\n"}`,"",0);' +
        'let a=n[i],m;if(/^[0-9]/.test(a)){if(!/^[0-7]+$/.test(a)||a.replace(/^0+/,"").length>4||parseInt(a,8)>4095)return F(`${a}: octal number out of range`);m=parseInt(a,8)&511}' +
        'else{let b=~cur&511,s=0;for(;;){let w=0;for(;"agou".includes(a[s])&&s<a.length;s++)w|=a[s]==="u"?448:a[s]==="g"?56:a[s]==="o"?7:511;let op=a[s++]??"";if(!"+-=".includes(op)||op==="")return F(`\\`${op}\': invalid symbolic mode operator`);' +
        'let p=0;for(;s<a.length&&"rwx".includes(a[s]);s++)p|=a[s]==="r"?292:a[s]==="w"?146:73;if(s<a.length&&a[s]!==",")return F(`\\`${a[s]}\': invalid symbolic mode character`);' +
        'w&&(p&=w);op==="+"?b|=p:op==="-"?b&=~p:(b&=~(w||511),b|=p);if(s>=a.length)break;s++}m=~b&511}' +
        'c.state.env.set("%umask",String(m));typeof c.fs.umask=="number"&&(c.fs.umask=m);return L(S?sym(m):"","",0)}function __jbUm(c){let v=c.state.env.get("%umask");return v===void 0?18:Number(v)}' +
        'async function df(e,t,n,r,s,i,o,a,l=!1){if(t==="umask")return __jbUmask(e.ctx,n);',
    },
    {
      // A nested execution (a `bash -c` a command runs) starts with the mask the filesystem has from its caller.
      find: 'd!==void 0&&h.set("PWD",d);',
      replace: 'd!==void 0&&h.set("PWD",d);typeof this.fs.umask=="number"&&h.set("%umask",String(this.fs.umask));',
    },
    {
      // Each simple command (its redirections, the program it runs) creates files with its own shell's mask.
      find: 'async executeSimpleCommand(t,n){let r;try{',
      replace: 'async executeSimpleCommand(t,n){typeof this.ctx.fs.umask=="number"&&(this.ctx.fs.umask=__jbUm(this.ctx));let r;try{',
    },
    {
      // And so does a compound command's redirection (`while …; done > f`, `{ …; } > f`).
      find: 'async function nt(e,t,n,r){let s=Vn(e,t,yr),i;',
      replace: 'async function nt(e,t,n,r){typeof e.fs.umask=="number"&&(e.fs.umask=__jbUm(e));let s=Vn(e,t,yr),i;',
    },
  ],
};
