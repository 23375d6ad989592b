// `set -x` quotes a traced word as bash 5.2 does (print_cmd.c xtrace_print_word_list): a word holding a shell
// metacharacter (blank, quote, backslash, `|&;()<>!{}*?[]^$` and a backquote, a leading `~` or `#`, a `~` after `=`
// or `:`) in single quotes, `'` written `'\''` (`'c'\''d'`, `'a<TAB>b'`); else one with another control character
// ANSI-C quoted (`$'\001'`, `$'\E'`); an empty word `''`; any other as is. An assignment's value is quoted the same
// way (`+ y='a b'`). just-bash used double quotes around a `'` and `$'…'` for tabs and newlines.
const quote = [
  'function _jbXtraceQuote(e){if(e==="")return"\'\'";',
  'if(/[ \\t\\n\'"\\\\|&;()<>!{}*?[\\]^$`]/.test(e)||/^[~#]/.test(e)||/[=:]~/.test(e))return`\'${e.replace(/\'/g,"\'\\\\\'\'")}\'`;',
  'if(!/[\\x00-\\x1f\\x7f]/.test(e))return e;let m={"\\x07":"a","\\b":"b","\\f":"f","\\r":"r","\\v":"v","\\x1b":"E"};',
  'return`$\'${e.replace(/[\\x00-\\x1f\\x7f]/g,c=>"\\\\"+(m[c]??c.charCodeAt(0).toString(8).padStart(3,"0")))}\'`}',
].join('');
export default {
  title: 'xtrace quotes traced words and assigned values as bash does',
  upstream: 'src/interpreter/helpers/xtrace.ts quoteForTrace: single quotes (with \'\\\'\') for words with shell metacharacters, ANSI-C quoting only for other control characters; quote assignment values too',
  file: 'dist/bundle/index.js',
  edits: [
    { find: 'function lm(e){', replace: `${quote}function lm(e){return _jbXtraceQuote(e)}function _jbXtraceQuoteOld(e){` },
    { find: '${await Ju(e)}${t}=${n}', replace: '${await Ju(e)}${t}=${n===""?"":_jbXtraceQuote(n)}' },
  ],
};
