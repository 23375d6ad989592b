// Once a function returns, `$LINENO` is the caller's line again: the line of the call. just-bash left it at the last
// line the function ran, so an ERR trap for a failing call (`trap 'echo "failed at line $LINENO"' ERR`) named a line
// inside the function, and `f || echo $LINENO` on a line of its own did too. Bash's manual, "Bash Variables" (LINENO)
// and "Shell Functions".
export default {
  title: '$LINENO is the line of the call again once a function returns (an ERR trap for the call names that line)',
  upstream: 'src/interpreter/functions.ts callFunction cleanup: when popping callLineStack, restore state.currentLine to the popped call line',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'e.state.funcNameStack?.shift(),e.state.callLineStack?.shift(),e.state.sourceStack?.shift(),e.state.callDepth--',
      replace: 'e.state.funcNameStack?.shift(),(_cl=>_cl!==void 0&&(e.state.currentLine=_cl))(e.state.callLineStack?.shift()),e.state.sourceStack?.shift(),e.state.callDepth--',
    },
  ],
};
