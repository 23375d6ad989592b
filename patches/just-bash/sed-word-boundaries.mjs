// GNU sed's `\<` and `\>` match the start and the end of a word (sed manual, "regexp extensions"). just-bash passed
// them on to JavaScript, where `\<` is a literal `<`: `sed -n '/\<foo\>/p'` matched nothing. Here both become `\b`,
// a word boundary, outside bracket expressions: the same match wherever a word character follows `\<` or precedes
// `\>`, which is how they are written; a `.` next to them can only be a word character, so `\<.` is `\b\w` and
// `.\>` is `\w\b` (sed's regex engine here, RE2, has no look-around to say it otherwise).
export default {
  title: "sed's \\< and \\> are word boundaries (GNU regexp extensions)",
  upstream: 'src/commands/sed/regex (the function that finishes a pattern for RegExp, after the BRE conversion): outside brackets, turn \\< and \\> into \\b',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: ':!t&&i[n]==="{"&&i[n+1]===","?(e+="{0,",n++):e+=i[n];return e}',
      replace: ':!t&&i[n]==="\\\\"&&i[n+1]==="<"?(e+=i[n+2]==="."?"\\\\b\\\\w":"\\\\b",n+=i[n+2]==="."?2:1):!t&&i[n]==="\\\\"&&i[n+1]===">"?(e=/(^|[^\\\\])\\.$/.test(e)?`${e.slice(0,-1)}\\\\w\\\\b`:`${e}\\\\b`,n++):!t&&i[n]==="\\\\"&&n+1<i.length?(e+=i[n]+i[n+1],n++):!t&&i[n]==="{"&&i[n+1]===","?(e+="{0,",n++):e+=i[n];return e}',
    },
  ],
};
