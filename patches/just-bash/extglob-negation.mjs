// `!(pattern-list)` matches anything except one of the patterns, wherever it stands in the pattern
// (`!(*.txt)`, `!(a|b).*`, `[[ $x == !(x*) ]]`): bash's manual, "Pattern Matching". just-bash translated it into a
// regular expression with look-ahead, which its RE2 engine refuses (the match then failed or errored), or into a
// fixed-length approximation. A pattern with `!(` is matched here by backtracking instead, as bash's own matcher
// does (bounded: a pattern that needs more than a million steps does not match).
/* eslint-disable no-undef */
function spzExtglobMatch(str, pat, nocase) {
  pat = pat.replace(/\0QUOTE_START\0([\s\S]*?)\0QUOTE_END\0/g, (m, q) => q.replace(/[\s\S]/g, '\\$&'));
  if (nocase) {
    str = str.toLowerCase();
    pat = pat.toLowerCase();
  }
  const CLASSES = { alpha: /\p{L}/u, digit: /[0-9]/, alnum: /[\p{L}0-9]/u, upper: /\p{Lu}/u, lower: /\p{Ll}/u, space: /\s/, blank: /[ \t]/, punct: /[!-/:-@[-`{-~]/, xdigit: /[0-9A-Fa-f]/, cntrl: /[\0-\x1f\x7f]/, print: /[^\0-\x1f\x7f]/, graph: /[^\0-\x20\x7f]/, word: /\w/ };
  const bracket = (i) => {
    let j = i + 1;
    const neg = pat[j] === '!' || pat[j] === '^';
    if (neg) j++;
    const tests = [];
    let first = true;
    for (; j < pat.length; j++) {
      const c = pat[j];
      if (c === ']' && !first) return { end: j + 1, node: { t: 'class', test: (ch) => tests.some((f) => f(ch)) !== neg } };
      first = false;
      if (c === '[' && pat[j + 1] === ':') {
        const close = pat.indexOf(':]', j + 2);
        const re = close > 0 ? CLASSES[pat.slice(j + 2, close)] : undefined;
        if (re) {
          tests.push((ch) => re.test(ch));
          j = close + 1;
          continue;
        }
      }
      let lo = c;
      if (c === '\\' && j + 1 < pat.length) lo = pat[++j];
      if (pat[j + 1] === '-' && pat[j + 2] !== undefined && pat[j + 2] !== ']') {
        let hi = pat[j + 2];
        j += 2;
        if (hi === '\\' && j + 1 < pat.length) hi = pat[++j];
        tests.push((ch) => ch >= lo && ch <= hi);
      } else tests.push((ch) => ch === lo);
    }
    return null;
  };
  const parse = (i, nested) => {
    const seq = [];
    while (i < pat.length) {
      const c = pat[i];
      if (nested && (c === '|' || c === ')')) break;
      if ('@*+?!'.includes(c) && pat[i + 1] === '(') {
        const alts = [];
        i += 2;
        for (;;) {
          const sub = parse(i, true);
          if (!sub) return null;
          alts.push(sub[0]);
          i = sub[1];
          if (pat[i] === '|') i++;
          else if (pat[i] === ')') break;
          else return null;
        }
        i++;
        seq.push({ t: 'ext', op: c, alts });
      } else if (c === '\\' && i + 1 < pat.length) {
        seq.push({ t: 'lit', c: pat[i + 1] });
        i += 2;
      } else if (c === '*') {
        seq.push({ t: 'star' });
        i++;
      } else if (c === '?') {
        seq.push({ t: 'any' });
        i++;
      } else {
        const cls = c === '[' ? bracket(i) : null;
        if (cls) {
          seq.push(cls.node);
          i = cls.end;
        } else {
          seq.push({ t: 'lit', c });
          i++;
        }
      }
    }
    return [seq, i];
  };
  const top = parse(0, false);
  if (!top) return false;
  let steps = 0;
  const run = (seq, k, j, cont) => {
    if (++steps > 1e6) return false;
    if (k === seq.length) return cont(j);
    const n = seq[k];
    const next = (e) => run(seq, k + 1, e, cont);
    const once = (from, then) => n.alts.some((a) => run(a, 0, from, then));
    switch (n.t) {
      case 'lit':
        return str[j] === n.c && next(j + 1);
      case 'any':
        return j < str.length && next(j + 1);
      case 'class':
        return j < str.length && n.test(str[j]) && next(j + 1);
      case 'star':
        for (let e = j; e <= str.length; e++) if (next(e)) return true;
        return false;
      default:
        if (n.op === '@') return once(j, next);
        if (n.op === '?') return next(j) || once(j, next);
        if (n.op === '!') {
          for (let e = j; e <= str.length; e++) if (!once(j, (x) => x === e) && next(e)) return true;
          return false;
        }
        {
          const rep = (from, count) => ((count > 0 || n.op === '*') && next(from)) || once(from, (e) => e > from && rep(e, count + 1));
          return rep(j, 0);
        }
    }
  };
  return run(top[0], 0, 0, (j) => j === str.length);
}
/* eslint-enable no-undef */

export default {
  title: '!(pattern-list) matches anything but the patterns, anywhere in a pattern',
  upstream: 'src/shell/glob.ts GlobExpander.matchPattern and src/interpreter/conditionals.ts matchPattern: match a pattern holding "!(" with a backtracking extglob matcher instead of a look-ahead regex (RE2 has none)',
  file: 'dist/bundle/index.js',
  edits: [
    {
      find: 'matchPattern(t,n){return this.patternToRegex(n).test(t)}',
      replace: `matchPattern(t,n){return this.extglob&&n.includes("!(")?spzExtglobMatch(t,n,this.nocaseglob):this.patternToRegex(n).test(t)}`,
    },
    { find: 'function Mn(e,t,n=!1,r=!1,s=256){', replace: `${String(spzExtglobMatch)}function Mn(e,t,n=!1,r=!1,s=256){if(r&&t.includes("!("))return ch(t,s),spzExtglobMatch(e,t,n);` },
  ],
};
