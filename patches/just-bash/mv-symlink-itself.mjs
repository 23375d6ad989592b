// mv renames a symbolic link itself, never what it points to, so a dangling link moves like any other name:
// `mv link.txt link.bak` after its target was renamed (POSIX mv: rename(2) of the operand). just-bash stat'ed the
// operand through the link and failed with `cannot stat` when the target was gone.
export default {
  title: 'mv moves a dangling symlink',
  upstream: 'src/commands/mv/mv.ts execute: lstat the source operand instead of stat, and compare a symlink source with the destination by name only',
  file: 'dist/bundle/chunks/chunk-WHHRIZS3.js',
  edits: [
    { find: 'a=await e.fs.stat(o),n=c;if(m){', replace: 'a=await e.fs.lstat(o),n=c;if(m){' },
    // A link is the same file as the destination only when it is the same name: its target is not compared.
    { find: 'let y=await F(e.fs,o,n);if(y==="same")continue;', replace: 'let y=a.isSymbolicLink?o===n?"same":"different":await F(e.fs,o,n);if(y==="same")continue;' },
  ],
};
