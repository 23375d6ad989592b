// `[[ s =~ RE ]]` with an RE that is no POSIX extended regular expression (an unclosed bracket expression `[`, an
// unmatched `(` or `)`, a trailing `\`) fails with status 2 and no message: regcomp(3) refuses it and bash's
// cond_expand_word/sh_regmatch return 2 (bash(1) "[[": "If the regular expression is syntactically incorrect, the
// conditional expression's return value is 2"). just-bash escaped what JavaScript would not take and matched: 1.
export default {
  title: '`[[ =~ ]]` with an invalid extended regular expression returns 2',
  upstream: 'src/interpreter/conditionals.ts (=~): validate the ERE as regcomp would (brackets, open parentheses, trailing backslash; a lone `)` is literal) and make the conditional command return 2 without a message',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'case"=~":try{let i=e.state.shoptOptions.nocasematch,o=fh(s),',
      replace:
        'case"=~":if(__jbEreInvalid(s)){let q=new Error("invalid regular expression");throw q.__jbQuiet=!0,q}s=__jbEreLoneParens(s);' +
        'try{let i=e.state.shoptOptions.nocasematch,o=fh(s),',
    },
    {
      find: 'catch(n){let r=n instanceof ce?1:2;return D(`bash: conditional expression: ${n.message}\n`,r)}})}};',
      replace: 'catch(n){if(n?.__jbQuiet)return D("",2);let r=n instanceof ce?1:2;return D(`bash: conditional expression: ${n.message}\n`,r)}})}};' +
        // An ERE regcomp refuses: an unclosed bracket expression (a `]` first in it, or after `^`, is literal;
        // `[:class:]`, `[=e=]`, `[.c.]` are inside), an unclosed `(` (a lone `)` is literal), or a trailing backslash.
        'function __jbEreInvalid(p){let d=0;for(let i=0;i<p.length;i++){let c=p[i];if(c==="\\\\"){if(++i>=p.length)return!0;continue}' +
        'if(c==="["){let j=i+1;p[j]==="^"&&j++;p[j]==="]"&&j++;for(;j<p.length&&p[j]!=="]";j++)if(p[j]==="["&&/[:=.]/.test(p[j+1]??"")){let k=p.indexOf(p[j+1]+"]",j+2);if(k<0)return!0;j=k+1}' +
        'if(j>=p.length)return!0;i=j;continue}if(c==="(")d++;else if(c===")"&&d>0)d--}return d!==0}' +
        // glibc takes a `)` with no open `(` as itself; JavaScript would refuse it, so it is escaped.
        'function __jbEreLoneParens(p){let d=0,o="";for(let i=0;i<p.length;i++){let c=p[i];if(c==="\\\\"){o+=c+(p[++i]??"");continue}' +
        'if(c==="["){let j=i+1;p[j]==="^"&&j++;p[j]==="]"&&j++;for(;j<p.length&&p[j]!=="]";j++)if(p[j]==="["&&/[:=.]/.test(p[j+1]??""))j=p.indexOf(p[j+1]+"]",j+2)+1;o+=p.slice(i,j+1);i=j;continue}' +
        'c==="("?d++:c===")"&&(d>0?d--:c="\\\\)");o+=c}return o}',
    },
  ],
};
