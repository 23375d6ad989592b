// `[[ s =~ RE ]]` matches as regexec(3) does: leftmost-longest (POSIX XBD 9.1: of the matches starting at the
// leftmost position, the longest), so `[[ abcd =~ ab|abcd ]]` sets BASH_REMATCH[0] to `abcd`. just-bash took the
// first alternative that matched (`ab`). Its RE2 regex is now compiled in RE2's leftmost-longest mode.
export default {
  title: '`[[ =~ ]]` matches leftmost-longest',
  upstream: 'src/interpreter/conditionals.ts (=~): compile the regex with RE2 LONGEST_MATCH',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'l=ge(o,i?"i":"").match(n);if(Ee(e,"BASH_REMATCH")', replace: 'l=ge(o,i?"i":"",{longest:!0}).match(n);if(Ee(e,"BASH_REMATCH")' },
  ],
};
