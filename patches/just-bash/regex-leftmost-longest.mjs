// POSIX regexes match leftmost-longest: of the matches starting at the leftmost position, the longest (POSIX XBD 9.1;
// `[[ abcd =~ ab|abcd ]]` sets BASH_REMATCH[0] to `abcd`). just-bash compiled them with RE2 in its default
// leftmost-first mode (the first alternative that matches: `ab`). RE2 has a leftmost-longest mode (LONGEST_MATCH,
// still linear-time); the regex wrapper takes a `longest` option to use it (regex-match-leftmost-longest and
// sed-z-leftmost-longest ask for it).
export default {
  title: 'the RE2 regex wrapper can match leftmost-longest (a `longest` option)',
  upstream: 'src/regex (user regex wrapper): a `longest` option compiling with RE2 LONGEST_MATCH',
  file: 'dist/bundle/chunks/chunk-KVG5FR5F.js',
  edits: [
    { find: 'this._re2=_.compile(n,r)', replace: 'this._re2=_.compile(n,s.longest?r|_.LONGEST_MATCH:r)' },
  ],
};
