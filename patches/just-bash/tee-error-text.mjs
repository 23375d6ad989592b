// tee names why it could not open a file as strerror words it: `tee: f: Permission denied` for a file (or a
// directory to create it in) the user may not write, `Is a directory`; just-bash said "No such file or directory"
// for every failure (GNU tee: error (0, errno, "%s", file)).
export default {
  title: 'tee: the error of a file it cannot open, as strerror words it',
  upstream: 'src/commands/tee/tee.ts: map the write error code (EACCES, EISDIR, ENOTDIR) to its text',
  file: 'dist/bundle/chunks/chunk-LSLPJOYM.js',
  edits: [
    {
      find: 'catch{s+=`tee: ${i}: No such file or directory\n`,a=1}',
      replace: 'catch(_e){s+=`tee: ${i}: ${{EACCES:"Permission denied",EPERM:"Operation not permitted",ENXIO:"No such device or address",EISDIR:"Is a directory",ENOTDIR:"Not a directory"}[_e?.code]??"No such file or directory"}\n`,a=1}',
    },
  ],
};
