// `command -v NAME` / `command -V NAME` answer as bash's command.def (through type's describe_command) does:
// - a name that is no alias, keyword, function or builtin is looked for in PATH's directories like any program, so an
//   executable script the user put there is found (`PATH=$PWD/bin:$PATH; command -v mytool`) before it ever ran, and
//   without an executable one the first file of that name is the answer (find_user_command's FS_EXEC_PREFERRED);
// - the status is 0 when any of the names was found (command_builtin ORs describe_command's answers);
// - a name found nowhere, with -V, is a builtin's error: `bash: line 1: command: NAME: not found` (-v stays silent).
// just-bash knew only the programs it has itself (or ones already run, through the hash table) and wrote a bare
// `NAME: not found`.
export default {
  title: 'command -v/-V find executable files in PATH and word the not-found message as bash',
  upstream: 'src/interpreter/builtins/command.ts handleCommandV: search PATH for an executable regular file when the name is not a registered command; not-found message `bash: command: NAME: not found`',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // The builtin's own body is left as it is (another fix edits it); each name goes through it, then through PATH.
      find: 'async function cf(e,t,n,r){let s="",i="",o=0;',
      replace:
        'async function cf(e,t,n,r){let s="",i="",o=0;for(let a of t){let q=await _jbCommandV(e,[a],n,r);if(q.exitCode!==0&&!q.stdout&&a&&!a.includes("/")){let f=null,g=null;for(let d of (e.state.env.get("PATH")??"").split(":")){if(!d)continue;try{let h=await e.fs.stat(`${d}/${a}`);if(h.isDirectory)continue;if((h.mode&73)!==0){f=`${d}/${a}`;break}g??=`${d}/${a}`}catch{}}f??=g;if(f){s+=r?`${a} is ${f}\\n`:`${f}\\n`,o++;continue}}s+=q.stdout,i+=r?q.stderr.replace(/^(.*): not found$/gm,"bash: command: $1: not found"):q.stderr,q.exitCode===0&&o++}return L(s,i,o>0||t.length===0?0:1)}' +
        'async function _jbCommandV(e,t,n,r){let s="",i="",o=0;',
    },
  ],
};
