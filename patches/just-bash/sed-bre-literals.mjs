// In a sed BRE, `*` at the start of the pattern, after a leading `^`, after `\(` or after `\|` is a literal star
// (POSIX XBD 9.3.3: "The <asterisk> shall be special except when used ... as the first character of an entire BRE
// (after an initial '^', if any) [or] as the first character of a subexpression"), and `{` and `}` are literals
// (only `\{` `\}` make an interval: `s/a{2}/X/` replaces the text `a{2}`). just-bash passed them on to the ERE it
// builds, where a leading `*` matched nothing and `{2}` was an interval.
export default {
  title: 'sed BRE: a leading `*` (after `^`, `\\(`, `\\|` too) and `{` `}` are literals',
  upstream: 'src/commands/sed/regex (BRE to ERE conversion): escape a `*` that has nothing to repeat, and `{` `}`',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'if(i[t]==="+"||i[t]==="?"||i[t]==="|"||i[t]==="("||i[t]===")"){e+=`\\\\${i[t]}`,t++;continue}',
      replace:
        'if(i[t]==="+"||i[t]==="?"||i[t]==="|"||i[t]==="("||i[t]===")"||i[t]==="{"||i[t]==="}"){e+=`\\\\${i[t]}`,t++;continue}' +
        'if(i[t]==="*"&&(e===""||e==="^"||/(^|[^\\\\])(\\\\\\\\)*[(|]$/.test(e))){e+="\\\\*",t++;continue}',
    },
  ],
};
