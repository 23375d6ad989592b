// Linux's execve(2) fails with E2BIG when the arguments and environment are too long for it; bash then says
// `bash: line 1: /usr/bin/cat: Argument list too long`, status 126, and the program never runs; builtins (`echo`,
// `printf`) are not limited. just-bash ran the program whatever its arguments. The limits are the embedder's to
// know (`state.execTooLong(name, path, args, env)` names the program to report, or null), as the kernel's are.
export default {
  title: 'A program whose arguments and environment exceed what execve takes fails with "Argument list too long", 126',
  upstream: 'src/interpreter/command-resolution.ts runCommand: before running a non-builtin command or script, ask the embedder\'s execTooLong hook (E2BIG) and fail with bash\'s message and 126',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if("script"in c)return t.includes("/")||H(c.path),await a(c.path,n,r);',
      replace:
        'if(!c.builtin&&i.state.execTooLong){let _w=i.state.execTooLong(t,c.path,n,{...o(),_:t.includes("/")?t:c.path});if(_w)return D(__jbPlace(i,`bash: ${_w}: Argument list too long\\n`),126)}' +
        'if("script"in c)return t.includes("/")||H(c.path),await a(c.path,n,r);',
    },
  ],
};
