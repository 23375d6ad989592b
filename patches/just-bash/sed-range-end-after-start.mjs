// A range's end is looked for from the line after its start (GNU sed manual, "Range Addresses": "If addr2 is a
// regexp, then checking for the ending match will start with the line following the line which matched the first
// address"; "If addr2 is a number less than or equal to the line matching addr1, then only the one line is
// matched"). just-bash tried a regex end on the start line too, so `/a/,/a/` was one line, and waited for a number
// end to equal the line number exactly, so `/x/,2` after line 2 never ended. `0,/re/` still tries the end on line 1.
export default {
  title: 'sed ranges: a regex end is tried from the next line, a number end at or before the start ends it at once',
  upstream: 'src/commands/sed/executor.ts matchesRange: on the start line skip a regex end (unless addr1 is 0); a number end ends the range when lineNumber >= it',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: ',d.active)return L(u,e,t,n,a)&&(d.active=!1,typeof r=="number"&&(d.completed=!0),s.set(m,d)),!0;',
      replace: ',d.active)return(typeof u=="number"?e>=u:L(u,e,t,n,a))&&(d.active=!1,typeof r=="number"&&(d.completed=!0),s.set(m,d)),!0;',
    },
    {
      find: 'E?(d.active=!0,d.startLine=e,s.set(m,d),L(u,e,t,n,a)&&(d.active=!1,',
      replace: 'E?(d.active=!0,d.startLine=e,s.set(m,d),(h?r===0&&L(u,e,t,n,a):typeof u=="number"?e>=u:L(u,e,t,n,a))&&(d.active=!1,',
    },
  ],
};
