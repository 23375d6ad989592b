/**
 * `nameGlob(pattern)`: a matcher of file names for a shell glob, for the `pattern` of `GET …/fs/list` (the
 * official JS SDK's `readdir(path, {pattern})`). Bash's pattern-matching rules for one name: `*` any run of
 * characters, `?` one character, `[abc]`, `[a-z]`, `[[:alpha:]]` (POSIX classes), `[!…]` / `[^…]` one character of
 * (or not of) a set, `\x` the character `x`; a name starting with `.` matches only a pattern starting with `.`
 * (bash without `dotglob`). A `[` with no closing `]` is a literal `[`. No brace expansion (not part of matching).
 * It is written here rather than taken from a glob library because those compile the pattern to a regular
 * expression that backtracks: minimatch 10 took 0.8 s for `*a*a*a*a*ab` against a 100-character name and 12.7 s
 * with one more `*a`, a request that would stall the server. Here the pattern is read once (linear in its length
 * but for `[:class:]`s inside unclosed brackets; the API caps a pattern at 4,096 characters), and a name is
 * matched backtracking only to the last `*`: O(name²) steps at most, O(name) without a `*`. Characters are Unicode
 * code points.
 * @see https://www.gnu.org/software/bash/manual/html_node/Pattern-Matching.html ; spec/openapi.yaml listFiles
 */

type CharTest = (cp: number, ch: string) => boolean;
type Token = { kind: 'star' } | { kind: 'any' } | { kind: 'char'; ch: string } | { kind: 'set'; negate: boolean; tests: CharTest[] };

/** POSIX character classes inside a bracket expression (`[[:alpha:]]`), for a UTF-8 locale. */
const CLASSES: Readonly<Record<string, RegExp>> = {
  alpha: /\p{L}/u,
  upper: /\p{Lu}/u,
  lower: /\p{Ll}/u,
  digit: /[0-9]/,
  alnum: /[\p{L}0-9]/u,
  xdigit: /[0-9A-Fa-f]/,
  word: /[\p{L}0-9_]/u,
  space: /\s/u,
  blank: /[ \t]/,
  punct: /[!-/:-@[-`{-~]/,
  cntrl: /\p{Cc}/u,
  print: /[^\p{Cc}]/u,
  graph: /[^\p{Cc}\s]/u,
};

/**
 * The bracket expression whose `[` is just before `start` and the index of its `]`, or no token when it is not
 * closed; `classes` tells whether a `[:class:]` was read on the way. An unknown class name (`[[:nope:]]`) matches
 * no character.
 */
function bracket(cps: string[], start: number): { token?: Token; end?: number; classes: boolean } {
  let i = start;
  let classes = false;
  const negate = cps[i] === '!' || cps[i] === '^';
  if (negate) i++;
  const tests: CharTest[] = [];
  let first = true;
  while (i < cps.length && (cps[i] !== ']' || first)) {
    first = false;
    if (cps[i] === '[' && cps[i + 1] === ':') {
      const close = cps.indexOf(':', i + 2);
      if (close > 0 && cps[close + 1] === ']') {
        const re = CLASSES[cps.slice(i + 2, close).join('')];
        tests.push(re ? (_cp, ch) => re.test(ch) : () => false);
        classes = true;
        i = close + 2;
        continue;
      }
    }
    let lo = cps[i]!;
    if (lo === '\\' && i + 1 < cps.length) lo = cps[++i]!;
    if (cps[i + 1] === '-' && i + 2 < cps.length && cps[i + 2] !== ']') {
      let hi = cps[i + 2]!;
      i += 2;
      if (hi === '\\' && i + 1 < cps.length) hi = cps[++i]!;
      const [from, to] = [lo.codePointAt(0)!, hi.codePointAt(0)!];
      tests.push((cp) => cp >= from && cp <= to);
    } else {
      const only = lo;
      tests.push((_cp, ch) => ch === only);
    }
    i++;
  }
  if (i >= cps.length) return { classes };
  return { token: { kind: 'set', negate, tests }, end: i, classes };
}

/** The pattern as tokens; linear in its length, but for `[:class:]`s inside brackets that never close. */
function tokenize(cps: string[]): Token[] {
  const out: Token[] = [];
  // Once a `[` finds no `]`, no later one can (its scan read the rest of the pattern the way the loop below reads
  // it), unless the scan skipped a `[:class:]`, whose `]` a later `[` may close on.
  let unclosed = false;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    if (c === '*') {
      if (out[out.length - 1]?.kind !== 'star') out.push({ kind: 'star' });
    } else if (c === '?') out.push({ kind: 'any' });
    else if (c === '\\' && i + 1 < cps.length) out.push({ kind: 'char', ch: cps[++i]! });
    else if (c === '[' && !unclosed) {
      const set = bracket(cps, i + 1);
      if (set.token) {
        out.push(set.token);
        i = set.end!;
      } else {
        unclosed = !set.classes;
        out.push({ kind: 'char', ch: '[' });
      }
    } else out.push({ kind: 'char', ch: c });
  }
  return out;
}

function matchesOne(t: Exclude<Token, { kind: 'star' }>, ch: string): boolean {
  if (t.kind === 'any') return true;
  if (t.kind === 'char') return t.ch === ch;
  const cp = ch.codePointAt(0)!;
  return t.tests.some((test) => test(cp, ch)) !== t.negate;
}

/** A matcher of names for the shell glob `pattern` (read once). The matcher never throws. */
export function nameGlob(pattern: string): (name: string) => boolean {
  const cps = Array.from(pattern);
  const tokens = tokenize(cps);
  const dotted = cps[0] === '.' || (cps[0] === '\\' && cps[1] === '.');
  return (name) => {
    if (name.startsWith('.') && !dotted) return false;
    const chars = Array.from(name);
    let t = 0;
    let c = 0;
    let starAt = -1; // the token index of the last `*` seen
    let starFrom = 0; // the character it is currently taken to end at
    while (c < chars.length) {
      const tok = tokens[t];
      if (tok && tok.kind !== 'star' && matchesOne(tok, chars[c]!)) {
        t++;
        c++;
      } else if (tok?.kind === 'star') {
        starAt = t++;
        starFrom = c;
      } else if (starAt >= 0) {
        t = starAt + 1;
        c = ++starFrom;
      } else return false;
    }
    while (tokens[t]?.kind === 'star') t++;
    return t === tokens.length;
  };
}
