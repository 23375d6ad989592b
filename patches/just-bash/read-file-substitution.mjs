// `$(< FILE)` for a file that cannot be opened prints bash's message (`bash: nope.txt: No such file or directory`,
// `Permission denied`; status 1) as the redirection of `$(cat FILE)` would: bash's manual, "Command Substitution".
// A directory gives bash an empty result, status 0 and no message (its read fails after the open succeeded).
// just-bash's shortcut for `$(< FILE)` returned "" and status 1 silently in every case.
export default {
  title: '$(< FILE) reports a file it cannot open, and reads a directory as empty',
  upstream: 'src/interpreter/expansion.ts expandWordPart CommandSubstitution (the `$(< file)` shortcut): on a failed read, add "bash: FILE: <strerror>" to the expansion stderr, or give "" with status 0 for a directory',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'if(s)try{let p=await se(e,s.target),',
      replace: 'if(s){let F;try{let p=F=await se(e,s.target),',
    },
    {
      find: 'catch(p){if(p instanceof x)throw p;return e.state.lastExitCode=1,e.state.env.set("?","1"),""}',
      replace:
        'catch(p){if(p instanceof x)throw p;if(F!==void 0){let W=F.startsWith("/")?F:`${e.state.cwd}/${F}`;if(await e.fs.stat(W).then(q=>q.isDirectory,()=>!1))return e.state.lastExitCode=0,e.state.env.set("?","0"),"";e.state.expansionStderr=(e.state.expansionStderr||"")+`bash: ${F}: ${p?.code==="EACCES"||/permission denied/i.test(String(p?.message))?"Permission denied":"No such file or directory"}\n`}return e.state.lastExitCode=1,e.state.env.set("?","1"),""}}',
    },
  ],
};
