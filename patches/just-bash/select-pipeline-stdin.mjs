// A select loop that is a pipeline stage reads its choices from the pipe (`printf '2\n' | select c in a b c; do …`),
// as every compound command there reads the stage's stdin (bash's manual, "Pipelines"). The interpreter handed a
// `for` node (which select is, marked) no stdin, so select read the shell's own and found none.
export default {
  title: 'a select loop in a pipeline reads the pipe',
  upstream: 'src/interpreter/interpreter.ts executeCommand: pass the stage stdin to executeFor; control-flow.ts: the select loop reads it when no redirection of its own gives one (as executeWhile does)',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'case"For":return yf(this.ctx,t)', replace: 'case"For":return yf(this.ctx,t,n)' },
    { find: 'async function yf(e,t){if(t.select)return _jbSelect(e,t);', replace: 'async function yf(e,t,Zn){if(t.select)return _jbSelect(e,t,Zn);' },
    {
      find: 'async function _jbSelect(e,t){',
      replace: 'async function _jbSelect(e,t,Zn=""){',
    },
    {
      find: 'return nt(e,t.redirections,"",async R=>{let g=e.state.groupStdin;R.stdin!==void 0&&(e.state.groupStdin=R.stdin);',
      replace: 'return nt(e,t.redirections,Zn,async R=>{let g=e.state.groupStdin,Zs=hf(R.stdin,Zn);Zs.owns&&(e.state.groupStdin=Zs.stdin);',
    },
  ],
};
