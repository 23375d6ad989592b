// A pathname pattern's `*` and `?` match a newline in a file name, as bash's do (a name is any bytes but NUL and
// `/`): `touch $'a\nb'; echo a*` names that file. just-bash turned them into `.*` and `.` without the dotAll flag,
// so a name holding a newline never matched.
export default {
  title: 'pathname expansion matches names holding a newline',
  upstream: 'src/interpreter/expansion/glob.ts patternToRegex: build the regex with the s (dotAll) flag',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'return ge(`^${n}$`,this.nocaseglob?"i":"")}',
      replace: 'return ge(`^${n}$`,this.nocaseglob?"is":"s")}',
    },
  ],
};
