// A redirection whose file cannot be opened for writing (`echo x > /nope/x`, a name over 255 bytes, a directory
// without write permission) fails only its command, with bash's message (`bash: /nope/x: No such file or
// directory`, status 1), and the script goes on (bash's manual, "Redirections": "if the redirection fails, the
// command is not executed"). just-bash rethrew the filesystem error for the standard descriptors, which ended the
// whole script.
export default {
  title: 'a redirection target that cannot be opened fails only its command',
  upstream: 'src/interpreter/redirections.ts openOutputRedirection: when creating or truncating the target fails with an errno (ENOENT, EACCES, ENOTDIR, EISDIR, ENAMETOOLONG, EROFS, ENOSPC, ELOOP), return the redirection error "bash: TARGET: <strerror>" instead of rethrowing',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'try{n?await e.fs.appendFile(i,"","binary"):await e.fs.writeFile(i,"","binary")}catch(a){if(!s)throw a;',
      replace:
        'try{n?await e.fs.appendFile(i,"","binary"):await e.fs.writeFile(i,"","binary")}catch(a){let W={ENOENT:"No such file or directory",EACCES:"Permission denied",EPERM:"Operation not permitted",ENOTDIR:"Not a directory",EISDIR:"Is a directory",ENAMETOOLONG:"File name too long",EROFS:"Read-only file system",ENOSPC:"No space left on device",ELOOP:"Too many levels of symbolic links"}[a?.code];if(W)return{error:L("",`bash: ${t}: ${W}\n`,1)};if(!s)throw a;',
    },
  ],
};
