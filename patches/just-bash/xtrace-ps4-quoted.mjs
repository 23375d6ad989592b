// bash expands PS4 as a prompt string: parameter expansion, command substitution and arithmetic, with its quotes,
// backslashes and pattern characters left as they are (bash(1) "PROMPTING"; `PS4='+"q" \x *(a) '` prints those
// characters). just-bash parsed it as an unquoted word, so `+(` opened an extglob pattern and swallowed the
// expansions after it (`PS4='+(${LINENO}) '` traced `+() `), and quotes and backslashes were removed. It is now
// parsed as the text of a double-quoted word.
export default {
  title: 'PS4 expands as a prompt string: `+(${LINENO})` keeps its expansions, quotes stay',
  upstream: 'src/interpreter/expansion (xtrace prefix, getXtracePrefix): parse PS4 as double-quoted text',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'e.state.options.xtrace=!1;try{let s=new Q().parseWordFromString(t,!1,!1),v=await se(e,s)',
      replace: 'e.state.options.xtrace=!1;try{let s=new Q().parseWordFromString(t,!0,!1),v=await se(e,s)',
    },
  ],
};
