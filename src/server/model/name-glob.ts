/**
 * `matchesNameGlob(name, pattern)`: whether one file name matches a shell glob, for the `pattern` of `GET …/fs/list`
 * (the official JS SDK's `readdir(path, {pattern})`). Bash's pattern-matching rules for one name: `*` any run of
 * characters, `?` one character, `[abc]`, `[a-z]`, `[!a-z]` / `[^a-z]` one character of (or not of) a set, `\x`
 * the character `x`; a name starting with `.` matches only a pattern starting with `.` (bash without `dotglob`).
 * An unclosed `[` is a literal `[`. No brace expansion and no `[[:class:]]` (neither is part of matching a name).
 * It is written here rather than taken from a glob library because those compile the pattern to a regular
 * expression that backtracks: minimatch 10 took 0.8 s for `*a*a*a*a*ab` against a 100-character name and 12.7 s
 * with one more `*a`, a request that would stall the server. This matcher backtracks only to the last `*`
 * (O(name × pattern) steps at most). Counts characters as Unicode code points.
 * @see https://www.gnu.org/software/bash/manual/html_node/Pattern-Matching.html ; spec/openapi.yaml listFiles
 */

type Token = { kind: 'star' } | { kind: 'any' } | { kind: 'char'; ch: string } | { kind: 'set'; negate: boolean; ranges: Array<[string, string]> };

/** The pattern as tokens (code points); see the module comment for the syntax. */
function tokenize(pattern: string): Token[] {
  const cps = Array.from(pattern);
  const out: Token[] = [];
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    if (c === '*') {
      if (out[out.length - 1]?.kind !== 'star') out.push({ kind: 'star' });
    } else if (c === '?') out.push({ kind: 'any' });
    else if (c === '\\' && i + 1 < cps.length) out.push({ kind: 'char', ch: cps[++i]! });
    else if (c === '[') {
      const set = bracket(cps, i + 1);
      if (set) {
        out.push(set.token);
        i = set.end;
      } else out.push({ kind: 'char', ch: '[' });
    } else out.push({ kind: 'char', ch: c });
  }
  return out;
}

/** The bracket expression starting after a `[` at `start`, and the index of its `]`; null when it is not closed. */
function bracket(cps: string[], start: number): { token: Token; end: number } | null {
  let i = start;
  const negate = cps[i] === '!' || cps[i] === '^';
  if (negate) i++;
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (i < cps.length && (cps[i] !== ']' || first)) {
    first = false;
    let lo = cps[i]!;
    if (lo === '\\' && i + 1 < cps.length) lo = cps[++i]!;
    if (cps[i + 1] === '-' && i + 2 < cps.length && cps[i + 2] !== ']') {
      let hi = cps[i + 2]!;
      i += 2;
      if (hi === '\\' && i + 1 < cps.length) hi = cps[++i]!;
      ranges.push([lo, hi]);
    } else ranges.push([lo, lo]);
    i++;
  }
  if (i >= cps.length) return null;
  return { token: { kind: 'set', negate, ranges }, end: i };
}

function matchesOne(t: Exclude<Token, { kind: 'star' }>, ch: string): boolean {
  if (t.kind === 'any') return true;
  if (t.kind === 'char') return t.ch === ch;
  const cp = ch.codePointAt(0)!;
  const inSet = t.ranges.some(([lo, hi]) => cp >= lo.codePointAt(0)! && cp <= hi.codePointAt(0)!);
  return inSet !== t.negate;
}

/** True when `name` (one path component) matches the shell glob `pattern`. Never throws. */
export function matchesNameGlob(name: string, pattern: string): boolean {
  if (name.startsWith('.') && !pattern.startsWith('.') && !pattern.startsWith('\\.')) return false;
  const tokens = tokenize(pattern);
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
}
