// GNU fold's columns are bytes (coreutils 9's fold has no multibyte support): `fold -w 4` on `héllo` breaks after
// `hél`, whose `é` is two columns. just-bash gave each character one column. A character that would straddle the
// width still moves whole to the next line here, where GNU cuts between its bytes.
export default {
  title: 'fold: every byte of a character is a column, as GNU fold counts',
  upstream: 'src/commands/fold/fold.ts (the column width of a character): its UTF-8 length, not 1',
  file: 'dist/bundle/chunks/chunk-Y62SXZKJ.js',
  edits: [{ find: 's==="\\b"?-1:1}function N(s,r)', replace: 's==="\\b"?-1:c(s)}function N(s,r)' }],
};
