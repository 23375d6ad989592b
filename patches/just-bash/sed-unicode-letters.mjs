// In the sprite's C.UTF-8 locale GNU sed's letters are Unicode letters: `[[:alpha:]]`, `[[:upper:]]`, `[[:lower:]]`,
// `[[:alnum:]]`, `\w`, `\W`, `\b`, `\B`, `\<` and `\>` cover `é`, `Ö`, `ß` (sed manual, "Character Classes and Bracket
// Expressions" and "regexp extensions"; glibc's UTF-8 LC_CTYPE). just-bash gave them ASCII ranges, and RE2's `\w`
// and `\b` are ASCII: `sed 's/[[:alpha:]]\+/<&>/g'` on `héllo` gave `<h>é<llo>`. Here the classes become Unicode
// properties (which RE2 knows); a pattern with `\w`, `\W`, `\b` or `\B` outside a bracket expression is compiled as a
// JavaScript `u` RegExp where a boundary is a look-around over Unicode word characters (RE2 has no look-around). A
// pattern JavaScript's `u` syntax rejects keeps the previous compilation.
const WORD = '[\\\\p{L}\\\\p{N}_]';
const helper = `function sedUnicodePattern(p){const W="${WORD}",N="[^\\\\p{L}\\\\p{N}_]",C={alpha:"\\\\p{L}",upper:"\\\\p{Lu}",lower:"\\\\p{Ll}",alnum:"\\\\p{L}\\\\p{Nd}"};let o="",b=!1,look=!1;for(let i=0;i<p.length;i++){const c=p[i];if(b){if(c==="["&&p[i+1]===":"){const e=p.indexOf(":]",i+2),k=e<0?"":p.slice(i+2,e);if(C[k]){o+=C[k],i=e+1;continue}}if(c==="\\\\"&&i+1<p.length){o+=c+p[++i];continue}if(c==="]"&&!(p[i-1]==="["||(p[i-1]==="^"&&p[i-2]==="["))){b=!1}o+=c;continue}if(c==="["){b=!0,o+=c;if(p[i+1]==="^")o+=p[++i];if(p[i+1]==="]")o+="\\\\]",i++;continue}if(c==="\\\\"&&i+1<p.length){const d=p[++i];if(d==="w"){o+=W;look=!0;continue}if(d==="W"){o+=N;look=!0;continue}if(d==="b"){o+="(?:(?<="+W+")(?!"+W+")|(?<!"+W+")(?="+W+"))";look=!0;continue}if(d==="B"){o+="(?:(?<="+W+")(?="+W+")|(?<!"+W+")(?!"+W+"))";look=!0;continue}o+=c+d;continue}o+=c}return{source:o,native:look}}`;

export default {
  title: "sed's letter classes, \\w and word boundaries cover Unicode letters (C.UTF-8)",
  upstream: 'src/commands/sed/regex (POSIX_CLASSES and the pattern compiler): Unicode property classes for alpha/upper/lower/alnum, and \\w \\W \\b \\B compiled as JavaScript u look-arounds over [\\p{L}\\p{N}_]',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'function A(p,f){return/(?:^|[^\\\\])(?:\\\\\\\\)*\\\\[1-9]/.test(p)?new SedNativeRegex(new RegExp(p,f)):sedRe2Regex(p,f)}',
      replace: `${helper}function A(p,f){const U=sedUnicodePattern(p);if(U.native||/(?:^|[^\\\\])(?:\\\\\\\\)*\\\\[1-9]/.test(p))try{return new SedNativeRegex(new RegExp(U.source,f+"u"))}catch{}else try{return sedRe2Regex(U.source,f)}catch{}return/(?:^|[^\\\\])(?:\\\\\\\\)*\\\\[1-9]/.test(p)?new SedNativeRegex(new RegExp(p,f)):sedRe2Regex(p,f)}`,
    },
    {
      find: 'var H=new Map([["alnum","a-zA-Z0-9"],["alpha","a-zA-Z"],',
      replace: 'var H=new Map([["alnum","\\\\p{L}\\\\p{Nd}"],["alpha","\\\\p{L}"],',
    },
    {
      find: '["lower","a-z"],',
      replace: '["lower","\\\\p{Ll}"],',
    },
    {
      find: '["upper","A-Z"],["word","a-zA-Z0-9_"]',
      replace: '["upper","\\\\p{Lu}"],["word","\\\\p{L}\\\\p{N}_"]',
    },
  ],
};
