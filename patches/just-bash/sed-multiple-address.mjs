// `ADDR1,~N` (GNU sed manual, "Range Addresses") matches from ADDR1 to the next line after it whose number is a
// multiple of N (GNU sed 4.9 goes on to the next multiple even when ADDR1's line is one: `4,~4` is lines 4-8;
// `~0` is ADDR1 alone). just-bash knew `ADDR1,+N` but lexed `~N` as nothing it could read, so the
// script failed with `expected context address`.
export default {
  title: 'sed addr1,~N ranges end at the next line number that is a multiple of N',
  upstream: 'src/commands/sed/lexer.ts (read `~N` like `+N`, marked as a multiple), parser.ts parseAddressRange (keep it), executor.ts (the relative range ends when the line number is a multiple of N)',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'n==="+"&&this.isDigit(this.input[this.pos+1]||"")?this.readRelativeOffset():',
      replace: 'n==="+"&&this.isDigit(this.input[this.pos+1]||"")?this.readRelativeOffset():n==="~"&&this.isDigit(this.input[this.pos+1]||"")?(s=>(s.value=`~${s.offset}`,s.multiple=s.offset,s.offset=0,s))(this.readRelativeOffset()):',
    },
    {
      find: 'case c.RELATIVE_OFFSET:return this.advance(),{offset:e.offset||0};',
      replace: 'case c.RELATIVE_OFFSET:return this.advance(),{offset:e.offset||0,multiple:e.multiple};',
    },
    {
      find: 'return e>=E+u.offset&&(d.active=!1,s.set(m,d)),!0}else return L(r,e,t,n,a)?(d.active=!0,d.startLine=e,s.set(m,d),u.offset===0&&(d.active=!1,s.set(m,d)),!0):!1}',
      replace: 'return(u.multiple?e%u.multiple===0:e>=E+u.offset)&&(d.active=!1,s.set(m,d)),!0}else return L(r,e,t,n,a)?(d.active=!0,d.startLine=e,s.set(m,d),!u.multiple&&u.offset===0&&(d.active=!1,s.set(m,d)),!0):!1}',
    },
  ],
};
