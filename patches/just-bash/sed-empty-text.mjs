// GNU sed's `a\` or `i\` at the very end of the script adds empty text: no line, but a last line read without a
// newline gets one (`sed '$a\' f` is the usual way to end a file in a newline). The sed wrapper
// (machines/memory/shell/sed-command.ts) gives such a command the text U+E000, which this writes as nothing;
// just-bash printed the backslash as a line of its own.
export default {
  title: 'sed a\\ and i\\ with no text add nothing but the last line\'s newline',
  upstream: 'src/commands/sed/sed.ts (writing the append and insert queues): an empty text writes no line; the parser should keep `a\\` at the end of the script as empty text',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    { find: 'for(let C of ee)v(`${C}\n`);', replace: 'for(let C of ee)v(C==="\\uE000"?"":`${C}\n`);' },
    { find: 'for(let C of q)v(`${C}\n`);', replace: 'for(let C of q)v(C==="\\uE000"?"":`${C}\n`);' },
  ],
};
