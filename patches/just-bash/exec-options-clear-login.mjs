// `exec`'s options as bash reads them (bash's manual, "Bourne Shell Builtins": `exec [-cl] [-a name] [command
// [arguments]]`): `-c` runs the command with an empty environment (as `env -i` does: `(exec -c env)` prints nothing),
// `-l` puts a dash before its argv[0] (what a login shell is given), letters combine (`-cl`, `-la NAME`), and any other
// letter is an invalid option with the usage line (status 2). just-bash knew only `-a NAME`, and ran `-c` as a command.
const USAGE = 'exec: usage: exec [-cl] [-a name] [command [argument ...]] [redirection ...]\\n';
export default {
  title: 'exec -c clears the environment, -l gives a login argv[0]; exec rejects other options',
  upstream: 'src/interpreter/builtin-dispatch.ts (exec): read -c, -l and -a as getopt letters; -c runs the command with an empty environment',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(t==="exec"){let _a;for(;n.length>0;){if(n[0]==="--"){n=n.slice(1);break}if(n[0]==="-a"&&n.length>1){_a=n[1];n=n.slice(2);continue}if(/^-a./.test(n[0])){_a=n[0].slice(2);n=n.slice(1);continue}break}',
      replace:
        'if(t==="exec"){let _a,_c=!1,_l=!1;for(;n.length>0;){let w=n[0];if(w==="--"){n=n.slice(1);break}if(!/^-./.test(w))break;n=n.slice(1);' +
        'for(let i=1;i<w.length;i++){let k=w[i];if(k==="c")_c=!0;else if(k==="l")_l=!0;else if(k==="a"){if(i+1<w.length)_a=w.slice(i+1);else{if(n.length===0)return D(`bash: exec: -a: option requires an argument\\n' + USAGE + '`,2);_a=n[0],n=n.slice(1)}break}' +
        'else return D(`bash: exec: -${k}: invalid option\\n' + USAGE + '`,2)}}',
    },
    {
      find: 'let[f,...d]=n,_o=c.state.env.get("__spritzer_argv0");',
      // -c: the command runs through `env -i`, whose failure to find it is exec's own `not found`.
      replace: 'let[f,...d]=n,_o=c.state.env.get("__spritzer_argv0"),_f=f;if(_l)_a="-"+(_a??f);if(_c)d=["-i",f,...d],f="env";',
    },
    {
      find: 'if(_r.exitCode===127&&_e.endsWith(_n)&&!_p.includes("\\n"))',
      replace: 'if(_c&&_r.exitCode===127&&/^env: .*: No such file or directory\\n$/.test(_e)&&_e.includes(_f))_r={..._r,stderr:`bash: line ${c.state.currentLine}: exec: ${_f}: not found\\n`};else if(_r.exitCode===127&&_e.endsWith(_n)&&!_p.includes("\\n"))',
    },
  ],
};
