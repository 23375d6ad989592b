/**
 * POSIX matching order for JavaScript regexes: of the matches that start at the leftmost position, the longest
 * (POSIX XBD 9.1 "Regular Expression Definitions": "the search for a matching sequence starts at the beginning of a
 * string and stops when the first sequence matching the expression is found, where 'first' is defined to mean 'begins
 * earliest in the string'. If the pattern permits a variable number of matching characters and thus there is more
 * than one such sequence starting at that point, the longest such sequence is matched").
 *
 * JavaScript takes the first alternative that matches instead (`ab|abcd` on `abcd` gives `ab`), so every tool that
 * runs a POSIX regex (grep, sed, awk, expr, `[[ =~ ]]`) finds its matches here: the JS match fixes the start, then a
 * binary search over "some match from that start ends at or after K" (a monotone question, asked with a sticky copy
 * of the regex followed by a lookbehind that needs the match to be at least K - start characters long) finds the
 * longest end in O(log n) extra runs, each costing what one match attempt from that start costs. The captures are those JavaScript finds for a match of that longest extent.
 * @deviation Cost, not output: a match whose pattern can vary in length costs up to about 2·log2(line length) more
 * attempts from its start (galloping then bisecting), where a POSIX matcher walks once; the probes are cached per
 * pattern and length (at most 2048 kept).
 * @deviation Subexpression captures follow JavaScript's order within the longest overall match, not POSIX's
 * "leftmost subexpression longest" rule (they differ only for ambiguous splits such as `(a|ab)(c|bcd)`).
 */

/** Regex source that can match more than one length from one start (a quantifier or an alternation). */
const VARIABLE = /[|*+?{]/;

/** Compiled "at least K characters long" probes, per source and flags; cleared when it grows past `PROBE_LIMIT`. */
const probes = new Map<string, RegExp>();
const PROBE_LIMIT = 2048;
/** A global copy of each caller's regex, so the caller's `lastIndex` is never disturbed. */
const globals = new WeakMap<RegExp, RegExp>();

function probe(re: RegExp, count: number): RegExp {
  const flags = `${re.flags.replace(/[gy]/g, '')}y`;
  const key = `${flags}/${count}/${re.source}`;
  let p = probes.get(key);
  if (!p) {
    if (probes.size >= PROBE_LIMIT) probes.clear();
    p = new RegExp(`(?:${re.source})(?<=[\\s\\S]{${count}})`, flags);
    probes.set(key, p);
  }
  return p;
}

/** Whether `re` reads code points (`u` or `v`), so `[\s\S]` takes a surrogate pair as one character. */
const unicode = (re: RegExp) => re.unicode || re.flags.includes('v');

/** How many characters `[\s\S]` counts in `text.slice(from, to)` under `re`'s flags (code points with `u`/`v`). */
function charsBetween(re: RegExp, text: string, from: number, to: number): number {
  if (!unicode(re)) return to - from;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * A match of `re` starting exactly at `start` that ends at or after `end` (UTF-16 units), or null. The probe runs on
 * the text from one character before `start` (the context the translated patterns' lookbehinds need: `\<`, `\b`,
 * `-w`; `^` cannot match there as the match starts one character in), so its lookbehind counts only over the match
 * and a probe costs what one match attempt costs, wherever the match is in a long line.
 */
function endingFrom(re: RegExp, text: string, start: number, end: number): RegExpExecArray | null {
  let from = start > 0 ? start - 1 : 0;
  if (from > 0 && unicode(re) && /[\udc00-\udfff]/.test(text[from]!) && /[\ud800-\udbff]/.test(text[from - 1]!)) from--;
  const p = probe(re, charsBetween(re, text, from, end));
  p.lastIndex = start - from;
  const m = p.exec(text.slice(from));
  if (m) {
    m.index += from;
    m.input = text;
  }
  return m;
}

/**
 * The leftmost-longest match of `re` in `text` at or after UTF-16 index `from`, as a RegExpExecArray (`index`,
 * `[0]`, captures), or null; with a sticky `re`, only a match starting at `from`. `re` keeps its own `lastIndex`; its
 * other flags (`i`, `u`, `s`, `m`) apply.
 */
export function execLongest(re: RegExp, text: string, from = 0): RegExpExecArray | null {
  let g = globals.get(re);
  if (!g) {
    g = new RegExp(re.source, `${re.flags.replace(/[gyd]/g, '')}${re.sticky ? 'y' : 'g'}`);
    globals.set(re, g);
  }
  g.lastIndex = from;
  const first = g.exec(text);
  if (!first || !VARIABLE.test(re.source)) return first;
  const start = first.index;
  let best = first;
  let lo = start + first[0].length + 1;
  if (lo > text.length) return best;
  const longer = endingFrom(re, text, start, lo);
  if (!longer) return best;
  // Some match ends at or after `lo`: find the largest K with a match ending at or after K; that match ends at K.
  // Gallop from the end found (the longest is most often near it), then bisect.
  best = longer;
  lo = start + longer[0].length;
  let hi = text.length;
  for (let step = 1; lo < hi; step *= 2) {
    const at = Math.min(hi, lo + step);
    const m = endingFrom(re, text, start, at);
    if (!m) {
      hi = at - 1;
      break;
    }
    best = m;
    lo = start + m[0].length;
  }
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const m = endingFrom(re, text, start, mid);
    if (m) {
      best = m;
      lo = start + m[0].length;
    } else hi = mid - 1;
  }
  if (best.index + best[0].length !== lo) best = endingFrom(re, text, start, lo) ?? best;
  return best;
}

/** Whether `re` matches anywhere in `text` (the longest match changes only where, not whether). */
export function testPosix(re: RegExp, text: string): boolean {
  return execLongest(re, text) !== null;
}

/**
 * Each leftmost-longest match of `re` in `text` from left to right, as `s///g`, `gsub` and `grep -o` walk them: after
 * a match the search resumes at its end, and after an empty match one character further on.
 */
export function* matchAllLongest(re: RegExp, text: string): Generator<RegExpExecArray> {
  for (let at = 0; at <= text.length; ) {
    const m = execLongest(re, text, at);
    if (!m) return;
    yield m;
    at = m[0] === '' ? m.index + 1 : m.index + m[0].length;
  }
}

// just-bash's sed runs the patterns RE2 cannot (back-references, word boundaries) as JavaScript regexes; its patch
// (patches/just-bash/sed-z-leftmost-longest.mjs) finds their matches through this same function.
(globalThis as { __spzExecLongest?: typeof execLongest }).__spzExecLongest = execLongest;

/**
 * `text` cut at each leftmost-longest match of `re` (awk's field and record splitting by a regex): the pieces
 * between matches, no captures among them. An empty match cuts only inside the text, as String.prototype.split does.
 */
export function splitLongest(re: RegExp, text: string): string[] {
  const parts: string[] = [];
  let last = 0;
  for (const m of matchAllLongest(re, text)) {
    if (m[0] === '' && (m.index === 0 || m.index >= text.length)) continue;
    parts.push(text.slice(last, m.index));
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}
