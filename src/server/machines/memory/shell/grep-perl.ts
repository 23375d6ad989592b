/**
 * `grep -P`'s PCRE2 patterns as JavaScript `u` regular expressions: the two languages share most of their syntax, and
 * this spells out what PCRE has that JavaScript writes otherwise — `\x{e9}` and `\N{U+00E9}` (code points),
 * `\p{Han}`/`\p{^Lu}`/`\pL` (scripts are `\p{Script=…}` in JavaScript), `(?P<n>…)`/`(?P=n)` (Python-style names),
 * atomic groups `(?>…)` and possessive quantifiers `a++`, `a*+`, `a?+`, `a{2,}+` (both become a look-ahead that
 * captures, then a back-reference to it: what the look-ahead matched is taken whole, never given back), `\Q…\E`,
 * `\K`, `\h`, `\A`, `\z`. A construct JavaScript cannot say (recursion, branch reset, conditionals, verbs, `\G`, `\X`,
 * `\C`, or an atomic group in a pattern whose numbered back-references it would renumber) is refused: {@link
 * PerlRefusal}, which grep reports with exit status 2, naming `--exec sandbox`.
 * @see https://www.pcre.org/current/doc/html/pcre2pattern.html
 */
import { SANDBOX_HINT } from './world.ts';

/** A PCRE construct the shell engine's regex engine has no equivalent for; `message` is grep's whole message. */
export class PerlRefusal extends Error {}

/** The name prefix of the empty groups that stand for PCRE's `\K` (keep-out): the match reported starts there. */
export const KEEP_OUT = 'grepKeepOut';

/** Counters shared by every pattern of one grep (group names must be unique in the joined regex). */
export interface PerlSerial {
  /** `\K` groups made so far. */
  n: number;
  /** Atomic look-ahead groups made so far. */
  atoms?: number;
}

/** General categories (PCRE's `\p{L}`, `\p{Lu}`, … and `L&`), which JavaScript writes the same way. */
const CATEGORY = /^(?:[LMNPSZC]|L[ultmo&]|M[nce]|N[dlo]|P[cdseifo]|S[mcko]|Z[slp]|C[cfsonf])$/;

const refuse = (what: string): never => {
  throw new PerlRefusal(`grep: the Perl pattern construct ${what} is not available in the shell engine; ${SANDBOX_HINT}`);
};

/** `\p{name}` (negated when `negate`) as JavaScript writes it. */
function property(name: string, negate: boolean): string {
  let n = name;
  let neg = negate;
  if (n.startsWith('^')) {
    neg = !neg;
    n = n.slice(1);
  }
  n = n.replace(/[\s_-]/g, '');
  const p = neg ? '\\P' : '\\p';
  if (n === 'Any') return neg ? '[^\\s\\S]' : '[\\s\\S]';
  if (CATEGORY.test(n)) return `${p}{${n === 'L&' ? 'LC' : n}}`;
  const script = n.charAt(0).toUpperCase() + n.slice(1).toLowerCase();
  try {
    new RegExp(`\\p{Script=${script}}`, 'u');
    return `${p}{Script=${script}}`;
  } catch {
    return refuse(`\\p{${name}}`);
  }
}

/**
 * A Perl pattern as JS source. A leading `(?i)`/`(?s)` is taken off into `mods` (the caller's flags); `\K` becomes an
 * empty named group (`KEEP_OUT` + a serial), whose position the caller reads through the `d` flag.
 * @throws {PerlRefusal} for a construct JavaScript cannot express
 */
export function perlSource(pattern: string, serial: PerlSerial, mods: Set<string>): string {
  const lead = /^\(\?([is]+)\)/.exec(pattern);
  if (lead) for (const f of lead[1]!) mods.add(f);
  const p = (lead ? pattern.slice(lead[0].length) : pattern).replace(/\\Q(.*?)(\\E|$)/g, (_, lit: string) => lit.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'));
  let out = '';
  /** Where each open group starts in `out`, and whether it is atomic (its name then). */
  const open: Array<{ at: number; atom?: string }> = [];
  let atomStart = -1;
  let inClass = false;
  let backrefs = false;
  let atomic = false;
  const atomName = () => `grepAtom${(serial.atoms = (serial.atoms ?? 0) + 1)}`;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    const start = out.length;
    if (c === '\\' && i + 1 < p.length) {
      const d = p[i + 1]!;
      const rest = p.slice(i);
      let m: RegExpExecArray | null;
      if ((m = /^\\x\{([0-9A-Fa-f]+)\}/.exec(rest)) || (m = /^\\N\{U\+([0-9A-Fa-f]+)\}/.exec(rest))) {
        out += `\\u{${m[1]}}`;
        i += m[0].length - 1;
      } else if ((m = /^\\([pP])(?:\{([^}]*)\}|([A-Za-z]))/.exec(rest))) {
        out += property(m[2] ?? m[3]!, m[1] === 'P');
        i += m[0].length - 1;
      } else if (d === 'K' && !inClass) {
        out += `(?<${KEEP_OUT}${serial.n++}>)`;
        i++;
      } else if (d === 'h') {
        out += inClass ? ' \\t' : '[ \\t]';
        i++;
      } else if ((d === 'A' || d === 'z' || d === 'Z') && !inClass) {
        out += d === 'A' ? '^' : '$';
        i++;
      } else if ('GXCR'.includes(d) && !inClass) {
        refuse(`\\${d}`);
      } else {
        if (/[1-9]/.test(d) && !inClass) backrefs = true;
        out += c + d;
        i++;
      }
      if (!inClass) atomStart = start;
      continue;
    }
    if (inClass) {
      out += c;
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      atomStart = start;
      out += c;
      if (p[i + 1] === '^') out += p[++i];
      if (p[i + 1] === ']') out += `\\${p[++i]}`;
      continue;
    }
    if (c === '(') {
      const rest = p.slice(i);
      if (rest.startsWith('(?>')) {
        atomic = true;
        const name = atomName();
        open.push({ at: start, atom: name });
        out += `(?=(?<${name}>`;
        i += 2;
      } else if (rest.startsWith('(?P<')) {
        open.push({ at: start });
        out += '(?<';
        i += 3;
      } else if (/^\(\?P=(\w+)\)/.test(rest)) {
        const m = /^\(\?P=(\w+)\)/.exec(rest)!;
        out += `\\k<${m[1]}>`;
        i += m[0].length - 1;
        atomStart = start;
      } else if (/^\(\?(?:\||R|[+-]?\d|&|P>|\(|C)|^\(\*/.test(rest)) {
        refuse(/^\(\??.?/.exec(rest)![0]);
      } else {
        open.push({ at: start });
        out += c;
      }
      continue;
    }
    if (c === ')') {
      const g = open.pop();
      out += g?.atom ? `))\\k<${g.atom}>` : c;
      atomStart = g ? g.at : start;
      continue;
    }
    const quant = /^(?:[*+?]|\{\d+(?:,\d*)?\})/.exec(p.slice(i));
    if (quant && atomStart >= 0) {
      i += quant[0].length - 1;
      if (p[i + 1] === '+') {
        atomic = true;
        const name = atomName();
        out = `${out.slice(0, atomStart)}(?=(?<${name}>${out.slice(atomStart)}${quant[0]}))\\k<${name}>`;
        i++;
      } else out += quant[0];
      atomStart = -1;
      continue;
    }
    atomStart = c === '|' || c === '^' || c === '$' ? -1 : start;
    out += c;
  }
  if (atomic && backrefs) refuse('(?>…) or a possessive quantifier with numbered back-references');
  return out;
}
