// An output redirection to `name/` opens the path as written, slash included, as open(2) with O_CREAT does: it
// fails with `bash: line N: new/: Is a directory` when nothing is there (or a file is), and makes no file `new`.
// The filesystem's resolvePath gives a missing `new/` as `/…/new`, the form commands want for their operands.
export default {
  title: 'an output redirection keeps the trailing slash of its target',
  upstream: 'src/interpreter/redirections.ts (open of an output target): resolve the target, then put back a trailing slash it was written with before the open',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let i=e.fs.resolvePath(e.state.cwd,t),o=await Eh(e,i,t,{checkNoclobber:!n,isClobber:r});',
      replace: 'let i=e.fs.resolvePath(e.state.cwd,t);/[^/]\\/+$/.test(t)&&!i.endsWith("/")&&(i+="/");let o=await Eh(e,i,t,{checkNoclobber:!n,isClobber:r});',
    },
  ],
};
