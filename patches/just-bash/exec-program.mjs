// `exec NAME` replaces the shell with a program: a name bash has as a builtin (`exec pwd`, `exec echo`) runs the
// program PATH finds for it, not the builtin (the two can differ: the pwd program is physical by default). just-bash
// ran the builtin. A builtin's name PATH does not have is not found (`PATH=/x; exec echo hi`: `exec: echo: not
// found`, 127).
export default {
  title: 'exec runs the program PATH finds for a builtin\'s name',
  upstream: 'src/interpreter/builtins/exec.ts: resolve a command name that is a bash builtin through PATH (findFirstInPath) and run it by that path',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // After exec-options-clear-login, which may hand the command to `env -i` (a program: nothing to look up).
      find: 'let[f,...d]=n,_o=c.state.env.get("__spritzer_argv0"),_f=f;if(_l)_a="-"+(_a??f);if(_c)d=["-i",f,...d],f="env";',
      replace:
        'let[f,...d]=n,_o=c.state.env.get("__spritzer_argv0"),_f=f;if(_l)_a="-"+(_a??f);if(_c)d=["-i",f,...d],f="env";let _nf=!f.includes("/")&&Fn.has(f);if(_nf)for(let _d of(c.state.env.get("PATH")??"/bin:/usr/bin").split(":")){let _x=c.fs.resolvePath(c.state.cwd,`${_d||"."}/${f}`),_s=await c.fs.stat(_x).catch(()=>null);if(_s?.isFile&&(_s.mode&73)!==0){f=_x;_nf=!1;break}}',
    },
    {
      // Not in PATH: the lookup's failure, which the exec-not-found patch words as exec's.
      find: 'let _r=await u(f,d,[],s,!1,!1,-1,l)',
      replace: 'let _r=_nf?{stdout:"",stderr:`bash: line ${c.state.currentLine}: ${f}: command not found\n`,exitCode:127}:await u(f,d,[],s,!1,!1,-1,l)',
    },
  ],
};
