// `exec -a NAME COMMAND ARGS…` runs COMMAND with NAME as its argv[0], the name a shell takes for `$0`
// (`exec -a worker bash -c 'echo $0'` prints worker); `exec -- COMMAND` ends the options. just-bash took `-a` for
// the command, and `exec -- COMMAND` for `exec` alone. The name reaches the command as the unlisted shell variable `__spritzer_argv0` while it starts
// (shell-command.ts reads it). Bash's manual, "Bourne Shell Builtins" (exec).
export default {
  title: 'exec -a NAME gives the command NAME as argv[0] ($0 of a shell); exec -- ends the options',
  upstream: 'src/interpreter/builtin-dispatch.ts (exec): read -a NAME and --, and pass NAME to the command as its argv[0]',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(t==="exec"){if(n.length===0)return ne;let[f,...d]=n;return{...await u(f,d,[],s,!1,!1,-1,l),internalProducerOmitsShellPrefix:!0}}',
      replace:
        'if(t==="exec"){let _a;for(;n.length>0;){if(n[0]==="--"){n=n.slice(1);break}if(n[0]==="-a"&&n.length>1){_a=n[1];n=n.slice(2);continue}if(/^-a./.test(n[0])){_a=n[0].slice(2);n=n.slice(1);continue}break}' +
        'if(n.length===0)return ne;let[f,...d]=n,_o=c.state.env.get("__spritzer_argv0");_a!==void 0&&c.state.env.set("__spritzer_argv0",_a);' +
        'try{return{...await u(f,d,[],s,!1,!1,-1,l),internalProducerOmitsShellPrefix:!0}}finally{_a!==void 0&&(_o===void 0?c.state.env.delete("__spritzer_argv0"):c.state.env.set("__spritzer_argv0",_o))}}',
    },
    {
      find: 'if(u==="exec"&&(f.length===0||f[0]==="--")){',
      replace: 'if(u==="exec"&&(f.length===0||f[0]==="--"&&f.length===1)){',
    },
  ],
};
