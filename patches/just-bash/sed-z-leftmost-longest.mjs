// sed's regexes match leftmost-longest (POSIX XBD 9.1; GNU sed uses the POSIX matcher): `echo abcd | sed -E
// 's/ab|abcd/X/'` prints `X`, and `s///g` walks from the end of each longest match. just-bash took the first
// alternative that matched (`Xcd`). Its RE2 regexes are compiled in RE2's leftmost-longest mode (the `longest`
// option of regex-leftmost-longest); the patterns it runs as JavaScript regexes (back-references, word boundaries)
// find their matches through spritzer's shared leftmost-longest search (posix-match.ts, on globalThis). Applied
// after the other sed patches, which build the `A` compiler this edits.
export default {
  title: 'sed regexes match leftmost-longest',
  upstream: 'src/commands/sed/executor.ts (createUserRegex): compile with RE2 LONGEST_MATCH; match JavaScript-regex patterns leftmost-longest',
  file: 'dist/bundle/chunks/chunk-CFBEDNHJ.js',
  edits: [
    {
      find: 'function A(p,f){const U=sedUnicodePattern(p);if(U.native||/(?:^|[^\\\\])(?:\\\\\\\\)*\\\\[1-9]/.test(p))try{return new SedNativeRegex(new RegExp(U.source,f+"u"))}catch{}else try{return sedRe2Regex(U.source,f)}catch{}return/(?:^|[^\\\\])(?:\\\\\\\\)*\\\\[1-9]/.test(p)?new SedNativeRegex(new RegExp(p,f)):sedRe2Regex(p,f)}',
      replace:
        'function A(p,f){const U=sedUnicodePattern(p);if(U.native||/(?:^|[^\\\\])(?:\\\\\\\\)*\\\\[1-9]/.test(p))try{return new SedLongestRegex(new RegExp(U.source,f+"u"))}catch{}else try{return sedRe2Regex(U.source,f,{longest:!0})}catch{}return/(?:^|[^\\\\])(?:\\\\\\\\)*\\\\[1-9]/.test(p)?new SedLongestRegex(new RegExp(p,f)):sedRe2Regex(p,f,{longest:!0})}' +
        // A JavaScript regex whose exec (from lastIndex when global), test and replace take the longest match.
        'class SedLongestRegex extends SedNativeRegex{exec(t){let r=this._regex,L=globalThis.__spzExecLongest;if(!L)return r.exec(t);let m=L(r,t,r.global?r.lastIndex:0);if(r.global)r.lastIndex=m?m.index+m[0].length:0;return m}' +
        'replace(t,e){if(typeof e!=="function")return super.replace(t,e);let o="",a=0,r=this._regex,L=globalThis.__spzExecLongest;if(!L)return super.replace(t,e);' +
        'for(let i=0;i<=t.length;){let m=L(r,t,i);if(!m)break;o+=t.slice(a,m.index)+e(m[0],...m.slice(1),m.index,t);a=m.index+m[0].length;if(!r.global)break;i=m[0]===""?a+1:a;if(m[0]==="")o+=t.slice(a,i),a=i}' +
        'return o+t.slice(a)}}',
    },
  ],
};
