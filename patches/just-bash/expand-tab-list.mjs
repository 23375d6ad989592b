// `expand -t LIST` as GNU coreutils 9.1 reads it ("expand invocation"): stops separated by commas or blanks, the
// last one possibly `+N` (stops every N after the previous stop) or `/N` (stops at every multiple of N); with a plain
// list, a tab past the last stop becomes one space. just-bash read only comma-separated numbers (`-t 4,+2` was an
// invalid tab size) and went on past the last stop at the interval of the last two.
export default {
  title: 'expand -t: blank-separated lists, +N and /N, one space past the last stop',
  upstream: 'src/commands/expand/expand.ts parseTabStops (blanks, a final +N or /N) and getTabWidth (past the last stop: +N, /N, else 1)',
  file: 'dist/bundle/chunks/chunk-PPDMRIJ7.js',
  edits: [
    {
      find: 'function c(s,i,t){let a=s.split(",").map(o=>o.trim());if(a.length>t)return null;let l=[];for(let o of a){let n=/^\\d+$/.test(o)?Number(o):NaN;if(!Number.isSafeInteger(n)||n<1||n>i)return null;l.push(n)}for(let o=1;o<l.length;o++)if(l[o]<=l[o-1])return null;return l}',
      replace: 'function c(s,i,t){let a=s.split(/[ ,]+/).filter(o=>o!=="");if(a.length===0||a.length>t)return null;let l=[];for(let k=0;k<a.length;k++){let m=/^([+/]?)(\\d+)$/.exec(a[k]);if(!m)return null;let n=Number(m[2]);if(!Number.isSafeInteger(n)||n<1||n>i)return null;if(m[1]){if(k!==a.length-1)return null;m[1]==="+"?l.inc=n:l.rep=n;continue}if(l.length&&n<=l[l.length-1])return null;l.push(n)}return l}',
    },
    {
      find: 'function z(s,i){if(i.length===1){let t=i[0];return t-s%t}for(let t of i)if(t>s)return t-s;if(i.length>=2){let t=i[i.length-1]-i[i.length-2],a=i[i.length-1],l=Math.floor((s-a)/t)+1;return a+l*t-s}return 1}',
      replace: 'function z(s,i){if(i.length===0){let u=i.inc||i.rep;return u-s%u}if(i.length===1&&!i.inc&&!i.rep){let t=i[0];return t-s%t}for(let t of i)if(t>s)return t-s;let a=i[i.length-1];if(i.inc)return a+(Math.floor((s-a)/i.inc)+1)*i.inc-s;if(i.rep)return i.rep-s%i.rep;return 1}',
    },
  ],
};
