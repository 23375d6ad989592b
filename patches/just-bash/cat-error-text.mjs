// cat names why it could not read an operand as strerror words the error: `cat: f: Permission denied` for a file
// (or a path through a directory) the user may not read, `Is a directory`, `Not a directory`; just-bash said
// "No such file or directory" for every failure (GNU cat: error (0, errno, "%s", infile)).
export default {
  title: 'cat: the error of an operand it cannot read, as strerror words it',
  upstream: 'src/commands/cat/cat.ts: map the read error code (EACCES, EISDIR, ENOTDIR) to its text instead of always "No such file or directory"',
  file: 'dist/bundle/chunks/chunk-Q6JV5CBB.js',
  edits: [
    {
      find: '$(T),h+=`cat: ${y}: No such file or directory\n`',
      replace: '$(T),h+=`cat: ${y}: ${{EACCES:"Permission denied",ENXIO:"No such device or address",EISDIR:"Is a directory",ENOTDIR:"Not a directory",ELOOP:"Too many levels of symbolic links"}[T?.code]??"No such file or directory"}\n`',
    },
  ],
};
