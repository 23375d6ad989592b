// A pattern's later components go on through a symbolic link to a directory, as through the directory itself:
// `*/*.md` lists `dlink/README.md` when `dlink` links to `docs`. Bash's manual, "Pathname Expansion" (bash reads the
// directory the name resolves to). just-bash descended only into entries whose own type was a directory.
export default {
  title: 'a pattern matches inside directories reached through symbolic links',
  upstream: 'src/shell/glob.ts GlobExpander.expandSegments: descend into an entry that is a directory or a symbolic link (a link to a non-directory then reads as empty)',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'd.isDirectory&&l.push(this.expandSegments(p,h,i))', replace: '(d.isDirectory||d.isSymbolicLink)&&l.push(this.expandSegments(p,h,i))' },
  ],
};
