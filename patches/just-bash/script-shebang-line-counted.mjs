// A script's `#!` line is its line 1: bash reads it as a comment, so the next line is line 2 in error messages and
// $LINENO. just-bash cut the line off before parsing, so every message named the line above the right one.
export default {
  title: 'a script run by name counts its #! line in line numbers',
  upstream: 'src/interpreter/interpreter.ts executeUserScript: keep the #! line (a comment) or its newline when parsing the script',
  file: 'dist/bundle/index.js',
  edits: [{ find: 'if(i.startsWith("#!")){let l=i.indexOf(`\n`);l!==-1&&(i=i.slice(l+1))}let o=e.state.loopDepth', replace: 'if(i.startsWith("#!")){let l=i.indexOf(`\n`);l!==-1&&(i=i.slice(l))}let o=e.state.loopDepth' }],
};
