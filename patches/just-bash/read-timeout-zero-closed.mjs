// `read -t 0` only asks whether input is ready (bash(1) "read": status 0 when it is); on a closed stdin (`<&-`)
// select(2) fails with EBADF, and bash returns 1 without a message. just-bash answered 0 whatever fd 0 was.
export default {
  title: '`read -t 0` on a closed stdin fails (status 1)',
  upstream: 'src/interpreter/builtins/read.ts: with a zero timeout, return 1 when the descriptor read is closed',
  file: 'dist/bundle/index.js',
  edits: [{ find: 'if(f===0){if(c)Ee(e,c);', replace: 'if(f===0&&u<=0&&e.state.stdinClosed===!0)return L("","",1);if(f===0){if(c)Ee(e,c);' }],
};
