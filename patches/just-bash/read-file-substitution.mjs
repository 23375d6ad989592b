// `$(< file)` on a file that does not exist prints bash's message (`bash: file: No such file or directory`) besides
// giving status 1 and nothing: bash's manual, "Command Substitution" (`$(< file)` is `$(cat file)`, whose
// redirection fails). just-bash failed silently.
export default {
  title: '$(< missing) says that the file does not exist',
  upstream: 'src/interpreter/expansion/command-substitution.ts (the $(< file) shortcut): on ENOENT append "bash: NAME: No such file or directory" to the expansion stderr',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"CommandSubstitution":{let s=Wl(t.body);if(s)try{let p=await se(e,s.target),',
      replace: 'case"CommandSubstitution":{let s=Wl(t.body),spzName;if(s)try{let p=spzName=await se(e,s.target),',
    },
    {
      find: 'catch(p){if(p instanceof x)throw p;return e.state.lastExitCode=1,e.state.env.set("?","1"),""}let i=e.substitutionDepth??0,',
      replace: 'catch(p){if(p instanceof x)throw p;return spzName!==void 0&&/ENOENT|no such file/i.test(`${p?.code??""} ${p?.message??""}`)&&(e.state.expansionStderr=`${e.state.expansionStderr||""}bash: ${spzName}: No such file or directory\n`),e.state.lastExitCode=1,e.state.env.set("?","1"),""}let i=e.substitutionDepth??0,',
    },
  ],
};
