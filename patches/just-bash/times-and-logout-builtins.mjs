// `times` and `logout` (bash's manual, "Bourne Shell Builtins" and "Bash Builtin Commands"). `times` prints the user
// and system times of the shell, then of its children, as `0m0.000s 0m0.000s` lines (bash's times.def format); the
// shell engine runs in the server's process and keeps no per-sprite CPU time, so both lines are zero. `logout` exits a
// login shell as `exit` does, and in any other shell fails with `not login shell: use \`exit'` (status 1). just-bash
// listed `times` as a builtin but ran nothing for it, and had no `logout`.
export default {
  title: 'times prints the (zero) CPU times; logout exits only a login shell',
  upstream: 'src/interpreter/builtins: add times and logout (state.loginShell)',
  file: 'dist/bundle/index.js',
  edits: [
    { find: '"fc","history","help","enable","builtin","caller"])', replace: '"fc","history","help","enable","builtin","caller","logout"])' },
    {
      find: 'if(t==="exit"){if(!c.state.heldProcSubs?.length)return Fo(c,n);',
      replace:
        'if(t==="times"){let x=n.find(a=>a.startsWith("-")&&a!=="-"&&a!=="--");return x?D(`bash: times: ${x.slice(0,2)}: invalid option\\ntimes: usage: times\\n`,2):ee("0m0.000s 0m0.000s\\n0m0.000s 0m0.000s\\n")}if(t==="logout"){if(c.state.loginShell!==!0)return D("bash: logout: not login shell: use `exit\'\\n",1);return Fo(c,n)}if(t==="exit"){if(!c.state.heldProcSubs?.length)return Fo(c,n);',
    },
  ],
};
