// How sed compiles a regex address (`/re/p`, `/a/,/b/d`), as GNU sed does (sed manual, "Regexp Addresses",
// "Extended regexps"): under -E/-r the address is an extended regex like the `s` command's (`/(a|b)+/`), and the
// letters `I` and `M` after it match without regard to case and let `^`/`$` match at each embedded newline
// (`sed -n '/hello/Ip'`). just-bash read every address as a basic regex, whatever -E said (`sed -E '/^(a|b)/d'`
// matched nothing), and ended it at its closing `/`, so an `I` read as a command ("invalid command: I"). The lexer
// now keeps the letters as the pattern's flags, the parser puts them and the -E mode on the address, and the
// address match compiles its regex with them.
export default {
  title: 'sed regex addresses: extended under -E, and the I and M flags',
  upstream: 'src/commands/sed/lexer.ts readPattern: read trailing I/M as flags; parser.ts parseAddress: keep them and extendedRegex; executor address match: no BRE conversion under -E, compile with i/m',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      // the lexer: the letters after the closing delimiter
      find: 'return this.peek()==="/"&&this.advance(),{type:c.PATTERN,value:n,pattern:n,line:e,column:t}}',
      replace: 'this.peek()==="/"&&this.advance();let F="";for(;this.peek()==="I"||this.peek()==="M";)F+=this.advance();return{type:c.PATTERN,value:n,pattern:n,addressFlags:F,line:e,column:t}}',
    },
    {
      // the parser: flags and the -E mode on the address
      find: 'case c.PATTERN:return this.advance(),{pattern:e.pattern||e.value};',
      replace: 'case c.PATTERN:return this.advance(),{pattern:e.pattern||e.value,addressFlags:e.addressFlags||"",extendedRegex:this.extendedRegex};',
    },
    {
      // the match
      find: 'let r=X(V(a));return A(r).test(n)',
      replace: 'let r=X(i.extendedRegex?a:V(a)),F=i.addressFlags||"";return A(r,(F.includes("I")?"i":"")+(F.includes("M")?"m":"")).test(n)',
    },
  ],
};
