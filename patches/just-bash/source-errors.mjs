// `source` / `.` report their own errors as bash's builtins do, with the place and the name they were called by:
// no file name is a usage error (`bash: line N: .: filename argument required`, then `.: usage: . filename
// [arguments]`, status 2); a name that is a directory is `source: src: is a directory`; a missing file is
// `bash: line N: nope.sh: No such file or directory` (status 1). Bash's manual, "Bourne Shell Builtins" (source),
// and source.def / evalfile.c (_evalfile's EISDIR check). just-bash wrote `bash: ` alone, always named `source`,
// and reported a directory as missing. (The place patch leaves source's result as it is: the sourced script's own
// messages are already placed.)
export default {
  title: 'source/. errors: their place, the name used, usage and is-a-directory',
  upstream: 'src/interpreter/builtins/source.ts handleSource: take the invoked name; usage error with the usage line; EISDIR reported as "NAME: FILE: is a directory"; messages prefixed with the error place',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The name the builtin was called by (source or `.`; mapfile-option-errors reads it too: readarray).
      find: 'let{ctx:c,runCommand:u}=e;if(c.coverage&&Fn.has(t)',
      replace: 'let{ctx:c,runCommand:u}=e;c.state.__jbBuiltin=t;if(c.coverage&&Fn.has(t)',
    },
    {
      find: 'return L("",`bash: source: filename argument required\n`,2);',
      replace: 'return L("",__jbPlace(e,`bash: ${e.state.__jbBuiltin==="."?".":"source"}: filename argument required\n`)+`${e.state.__jbBuiltin==="."?".":"source"}: usage: ${e.state.__jbBuiltin==="."?".":"source"} filename [arguments]\n`,2);',
    },
    {
      find: 'if(i===null)return D(`bash: ${r}: No such file or directory\n`);',
      replace: 'if(i===null){let _d=!1;try{_d=(await e.fs.stat(e.fs.resolvePath(e.state.cwd,r))).isDirectory}catch{}return D(__jbPlace(e,_d?`bash: ${e.state.__jbBuiltin==="."?".":"source"}: ${r}: is a directory\n`:`bash: ${r}: No such file or directory\n`))}',
    },
  ],
};
