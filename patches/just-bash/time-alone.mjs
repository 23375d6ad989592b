// `time` with no pipeline after it (`time;`, `time -p`, `time` at the end of a line) times nothing and reports it
// (bash's manual, "Pipelines": the reserved word alone is accepted and reports the shell's own times, all zero here).
// just-bash's parser demanded a command after it, so a script holding one failed to parse as a whole.
export default {
  title: 'time alone reports zero times instead of a syntax error',
  upstream: 'src/parser/parser.ts parsePipeline (after the time prefix, the end of a statement gives an empty command to time, marked spzTimeAlone so that it is not taken for a stray `}`)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'let s=r%2===1,i=[],o=[],a=this.parseCommand();for(i.push(a);',
      replace: 'let s=r%2===1,i=[],o=[],a=t&&r===0&&this.check(E.EOF,E.NEWLINE,E.SEMICOLON,E.AMP,E.RPAREN)?{...M.simpleCommand(null),spzTimeAlone:!0}:this.parseCommand();for(i.push(a);',
    },
  ],
};
