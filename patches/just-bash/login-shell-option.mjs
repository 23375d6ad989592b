// `shopt login_shell` (`-q`, `-p`) answers whether the shell is a login shell (`bash -l`, `bash --login`): the
// embedder marks such an execution with the exec option `loginShell`. Bash's manual, "The Shopt Builtin"
// (login_shell: "set by the shell if it is started as a login shell; the value may not be changed"); just-bash
// always answered off.
export default {
  title: 'shopt login_shell is on in a login shell',
  upstream: 'src/Bash.ts exec options: loginShell (kept on the interpreter state); src/interpreter/builtins/shopt.ts: report login_shell from it (setting it stays a no-op)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'signal:u.signal,extraArgs:u.args}',
      replace: 'signal:u.signal,extraArgs:u.args,loginShell:u.loginShell===!0}',
    },
    {
      find: 'let f=!1,d=[],p=0,h=[],m=0;for(let w of c){',
      replace: 'let f=!1,d=[],p=0,h=[],m=0;for(let w of c){if(w==="login_shell"&&!s&&!i){let b=e.state.loginShell===!0;a?b||(f=!0):o?(m=Pt(h,`shopt ${b?"-s":"-u"} ${w}`,m,r),b||(f=!0)):(m=Pt(h,`${w}\\t\\t${b?"on":"off"}`,m,r),b||(f=!0));continue}',
    },
  ],
};
