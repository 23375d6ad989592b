// A redirection bash cannot open (a read-only file, a missing directory, a directory, a name too long) fails that
// command alone, with bash's message (`bash: a.txt: Permission denied`) and status 1; the script goes on. Bash's
// manual, "Redirections"; just-bash rethrew the filesystem's error for `>`, `>>` and `&>`, which ended the script.
export default {
  title: 'a redirection that cannot be opened fails its command, not the script',
  upstream: 'src/interpreter/redirections.ts openOutputRedirect: on a failed open, return the error result with strerror(code) for every caller instead of rethrowing',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'catch(a){if(!s)throw a;return{error:L("",`bash: ${t}: cannot open redirect target\n`,1)}}return{entry:{kind:"output",path:i,append:n}}}',
      replace: 'catch(a){let c={EACCES:"Permission denied",ENOENT:"No such file or directory",ENXIO:"No such device or address",EPERM:"Operation not permitted",EISDIR:"Is a directory",ENOTDIR:"Not a directory",ENAMETOOLONG:"File name too long",ENOSPC:"No space left on device",EROFS:"Read-only file system",ELOOP:"Too many levels of symbolic links",EDQUOT:"Disk quota exceeded"}[a?.code];if(!c&&!s)throw a;return{error:L("",`bash: ${t}: ${c??"cannot open redirect target"}\n`,1)}}return{entry:{kind:"output",path:i,append:n}}}',
    },
  ],
};
