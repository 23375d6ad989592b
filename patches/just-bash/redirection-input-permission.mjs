// An input redirection from a file the user may not read (`tr a b < f` after `chmod 000 f`) fails with bash's
// `bash: f: Permission denied` (open(2)'s EACCES, as strerror words it), and from a path through a file with
// `Not a directory`, and from `/dev/tty` without a terminal with `No such device or address`; just-bash said
// "No such file or directory" for every failure to open it.
export default {
  title: 'input redirection: Permission denied / Not a directory as the open error says',
  upstream: 'src/interpreter/redirections.ts (input redirection): word the read error by its code (EACCES, ENOTDIR) instead of always ENOENT',
  file: 'dist/bundle/index.js',
  edits: [
    {
      // A command's own `<`: the open error is not kept here, so the user's access to the file decides the words.
      find: '{return p(L("",`bash: ${v}: No such file or directory\n`,1),g)}}else if(y.ope',
      replace: '{return p(L("",`bash: ${v}: ${await e.fs.stat(A).then(()=>e.fs.access?e.fs.access(A,4).then(_r=>!_r):!1,_x=>_x?.code==="EACCES")?"Permission denied":await e.fs.readFileBuffer(A).then(()=>!1,_x=>_x?.code==="ENXIO")?"No such device or address":"No such file or directory"}\n`,1),g)}}else if(y.ope',
    },
    {
      find: 'catch{if(!n)return{error:L("",`bash: ${t}: No such file or directory\n`,1)};',
      replace: 'catch(_e){if(!n)return{error:L("",`bash: ${t}: ${_e?.code==="EACCES"?"Permission denied":_e?.code==="ENOTDIR"?"Not a directory":_e?.code==="ENXIO"?"No such device or address":"No such file or directory"}\n`,1)};',
    },
  ],
};
