// GNU expand counts a column per byte, not per character (coreutils 9's expand has no multibyte support: its column
// is a byte count): `expand -t 4 <<< $'é\ty'` gives `é` + 2 spaces. just-bash advanced one column per character.
export default {
  title: 'expand: every byte of a character is a column, as GNU expand counts',
  upstream: 'src/commands/expand/expand.ts (expandLine): advance the column by the UTF-8 length of a character, not by 1',
  file: 'dist/bundle/chunks/chunk-PPDMRIJ7.js',
  edits: [{ find: 'o+=r,e+=d,n++}return o}', replace: 'o+=r,e+=d,n+=d}return o}' }],
};
