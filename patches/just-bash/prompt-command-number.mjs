// In a prompt string (`${p@P}`), `\#` is the command number, which a shell that is not interactive never advances
// from 0 (bash counts commands in its interactive read loop only); `\!`, the history number, is 1. just-bash gave 1
// for both.
export default {
  title: 'prompt strings: \\# is 0 in a shell that is not interactive',
  upstream: 'src/interpreter/expansion/prompt.ts (expandPrompt: \\# reads the command number, 0 unless interactive)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"#":n.append(h),r+=2;break;case"!":n.append(h)',
      replace: 'case"#":n.append(e.state.env.get("__COMMAND_NUMBER")||"0"),r+=2;break;case"!":n.append(h)',
    },
  ],
};
