/**
 * GNU grep's pattern languages made JavaScript regular expressions (`u` flag, matched against UTF-8-decoded lines):
 * BRE (`-G`, with GNU's `\+ \? \| \< \> \b \w \s`), ERE (`-E`), fixed strings (`-F`) and Perl (`-P`, which
 * JavaScript's syntax mostly is), with `-w`/`-x` and several patterns made one alternation (back-references
 * renumbered). Malformed patterns fail with GNU's messages (`Unmatched ( or \(`, `Trailing backslash`, …).
 * @see https://www.gnu.org/software/grep/manual/grep.html#Regular-Expressions
 */

import { KEEP_OUT, PerlRefusal, perlSource, type PerlSerial } from './grep-perl.ts';

export type GrepSyntax = 'basic' | 'extended' | 'fixed' | 'perl';

/** The matcher of a pattern list, or GNU's message for its first bad pattern. */
export type Compiled = { regex: RegExp; warnings: string[] } | { error: string };

/** POSIX classes in the sprite's C.UTF-8 locale, as the body of a JS `u` character class. */
const CLASSES: Record<string, string> = {
  alpha: '\\p{L}',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  digit: '0-9',
  alnum: '\\p{L}\\p{Nd}',
  xdigit: '0-9A-Fa-f',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  print: ' -~\\u00a0-\\u{10ffff}',
  graph: '!-~\\u00a1-\\u{10ffff}',
  cntrl: '\\0-\\x1f\\x7f',
};

/** A word character for `\w`, `\<`, `\>` and `-w`: letters and digits of any script, and `_`. */
const WORD = '[\\p{L}\\p{N}_]';

/** The same classes over bytes (awk reads bytes: a byte above 0x7f is in no class). */
const ASCII_CLASSES: Record<string, string> = { ...CLASSES, alpha: 'A-Za-z', upper: 'A-Z', lower: 'a-z', alnum: 'A-Za-z0-9', print: ' -~', graph: '!-~' };

/** How a dialect reads classes and escapes: grep's (Unicode text) or awk's (bytes, C escapes, `\` in brackets). */
interface Dialect {
  classes: Record<string, string>;
  word: string;
  notWord: string;
  awk: boolean;
  /** GNU sed's syntax (RE_SYNTAX_POSIX_BASIC/EXTENDED): a repetition with nothing to repeat, or of a repetition in a
   * BRE, is an error, and so are an ERE's unmatched `)` and unfinished `{`, which grep takes as literals. */
  sed?: boolean;
}
const GREP: Dialect = { classes: CLASSES, word: WORD, notWord: '[^\\p{L}\\p{N}_]', awk: false };
const SED: Dialect = { ...GREP, sed: true };
const AWK: Dialect = { classes: ASCII_CLASSES, word: '[A-Za-z0-9_]', notWord: '[^A-Za-z0-9_]', awk: true };
const C_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '/': '/', '"': '"' };
/** `c` as a literal outside a class, and inside one (where `-` and `^` matter instead). */
const literal = (c: string) => (/[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c);
const classLiteral = (c: string) => (/[\\^\]\[-]/.test(c) ? `\\${c}` : c);

class Bad extends Error {}

/** A bracket expression starting at `p[i] === '['`: the JS class and the index after it. */
function bracket(p: string, i: number, dialect: Dialect): [string, number] {
  let j = i + 1;
  let out = '[';
  if (p[j] === '^') {
    out += '^';
    j++;
  }
  // GNU words a pattern that ends at the `[` (or `[^`) itself differently from one missing its `]`.
  if (j >= p.length) throw new Bad('Invalid regular expression');
  let first = true;
  for (;;) {
    if (j >= p.length) throw new Bad('Unmatched [, [^, [:, [., or [=');
    const c = p[j]!;
    // A negated bracket expression matches no stray byte either (utf8-carry.ts); awk reads bytes.
    if (c === ']' && !first) return [`${out}${out.startsWith('[^') && !dialect.awk ? '\\uf780-\\uf7ff' : ''}]`, j + 1];
    first = false;
    if (c === '[' && (p[j + 1] === ':' || p[j + 1] === '=' || p[j + 1] === '.')) {
      const kind = p[j + 1]!;
      const close = p.indexOf(`${kind}]`, j + 2);
      if (close < 0) throw new Bad('Unmatched [, [^, [:, [., or [=');
      const name = p.slice(j + 2, close);
      if (kind === ':') {
        if (!(name in dialect.classes)) throw new Bad('Invalid character class name');
        out += dialect.classes[name];
      } else out += [...name].map(classLiteral).join('');
      j = close + 2;
      continue;
    }
    if (dialect.awk && c === '\\' && j + 1 < p.length) {
      // awk escapes inside brackets too (`[\/]`, `[\t ]`).
      const d = p[j + 1]!;
      out += classLiteral(C_ESCAPES[d] ?? d);
      j += 2;
      continue;
    }
    // A range keeps its `-`; any other `-` (first or last) is a literal. A range whose end sorts before its start
    // is GNU's `Invalid range end`.
    if (c === '-' && out.length > 1 && p[j + 1] !== ']' && !out.endsWith('^')) {
      const lo = p[j - 1]!;
      const hi = p[j + 1]!;
      if (!/[\]\\[]/.test(lo) && !/[\\[]/.test(hi) && lo.codePointAt(0)! > hi.codePointAt(0)!) throw new Bad('Invalid range end');
      out += '-';
    }
    else out += classLiteral(c);
    j++;
  }
}

/** A BRE or ERE `p` as JS regex source; group numbers in back-references are shifted by `offset`. */
function posix(p: string, extended: boolean, offset: number, warnings: string[], dialect: Dialect = GREP): { source: string; groups: number } {
  let out = '';
  let groups = 0;
  /** The `out` index of each open group's `(`. */
  const open: number[] = [];
  /** Where the last atom begins in `out` (-1: nothing to repeat, as at the start or after `(`, `|`, `^`). */
  let atom = -1;
  let quantified = false;
  const addAtom = (text: string) => {
    atom = out.length;
    quantified = false;
    out += text;
  };
  const boundary = (text: string) => {
    atom = -1;
    out += text;
  };
  /** Appends quantifier `q`; a second one applies to the first's result (`a**`), as in POSIX. */
  const quantify = (q: string) => {
    if (quantified) out = `${out.slice(0, atom)}(?:${out.slice(atom)})`;
    out += q;
    quantified = true;
  };
  for (let i = 0; i < p.length; ) {
    const c = p[i]!;
    const none = atom < 0;
    if (c === '\\') {
      if (i + 1 >= p.length) throw new Bad('Trailing backslash');
      const d = p[i + 1]!;
      i += 2;
      if (dialect.awk) {
        // mawk knows C escapes and octal bytes; any other escaped character is itself (`\w`, `\s`, `\<`, `\y` are
        // GNU or gawk extensions it lacks: `/\w/` matches a `w`).
        if (C_ESCAPES[d] !== undefined) addAtom(literal(C_ESCAPES[d]!));
        else if (/[0-7]/.test(d)) {
          const oct = /^[0-7]{1,3}/.exec(p.slice(i - 1))![0];
          i += oct.length - 1;
          addAtom(literal(String.fromCharCode(parseInt(oct, 8) & 255)));
        } else addAtom(literal(d));
        continue;
      }
      if (!extended && d === '(') {
        open.push(out.length);
        groups++;
        boundary('(');
      } else if (!extended && d === ')') {
        const at = open.pop();
        if (at === undefined) throw new Bad('Unmatched ) or \\)');
        out += ')';
        atom = at;
        quantified = false;
      } else if (!extended && d === '|') boundary('|');
      else if (!extended && d === '{') {
        const m = /^(\d*)(,(\d*))?\\\}/.exec(p.slice(i));
        if (dialect.sed && (none || quantified)) throw new Bad('Invalid preceding regular expression');
        if (none) addAtom('\\{');
        else {
          if (!m) throw new Bad(p.slice(i).includes('\\}') ? 'Invalid content of \\{\\}' : 'Unmatched \\{');
          quantify(interval(m[1]!, m[2], m[3]));
          i += m[0].length;
        }
      } else if (!extended && (d === '+' || d === '?')) {
        if (none) addAtom(`\\${d}`);
        else quantify(d);
      } else if (/[1-9]/.test(d)) {
        if (Number(d) > groups) throw new Bad('Invalid back reference');
        addAtom(`\\${Number(d) + offset}`);
      } else if (d === '<') boundary(`(?<!${dialect.word})(?=${dialect.word})`);
      else if (d === '>') boundary(`(?<=${dialect.word})(?!${dialect.word})`);
      else if (d === 'b' || d === 'B') boundary(`\\${d}`);
      else if (d === 'w') addAtom(dialect.word);
      else if (d === 'W') addAtom(dialect.notWord);
      else if (d === 's' || d === 'S') addAtom(`\\${d}`);
      else if (d === '`') boundary('^');
      else if (d === "'") boundary('$');
      else addAtom(literal(d));
      continue;
    }
    if (c === '[') {
      const [cls, next] = bracket(p, i, dialect);
      if (/^\[:.*:\]$/.test(p.slice(i, next))) throw new Bad(`character class syntax is [${p.slice(i, next)}], not ${p.slice(i, next)}`);
      addAtom(cls);
      i = next;
      continue;
    }
    i++;
    // Any character, a newline too (a grep line holds one only under -z; an awk record under RS="" or a string built
    // with "\n") and `\r`, but no stray byte (utf8-carry.ts).
    if (c === '.') addAtom(dialect.awk ? '[\\s\\S]' : '[^\\uf780-\\uf7ff]');
    else if (c === '*' || (extended && (c === '+' || c === '?'))) {
      // With nothing before it, `*` is a literal in a BRE; an ERE ignores it (GNU warns). sed refuses `**` in a BRE
      // and a leading `*`, `+`, `?` in an ERE.
      if (dialect.sed && ((extended && none) || (!extended && !none && quantified))) throw new Bad('Invalid preceding regular expression');
      if (!none) quantify(c);
      else if (extended) warnings.push(`grep: warning: ${c} at start of expression`);
      else addAtom('\\*');
    } else if (c === '^') {
      if (extended || none) boundary('^');
      else addAtom('\\^');
    } else if (c === '$') {
      const rest = p.slice(i);
      if (extended || rest === '' || rest.startsWith('\\)') || rest.startsWith('\\|')) boundary('$');
      else addAtom('\\$');
    } else if (extended && c === '{' && !dialect.awk) {
      const m = /^(\d*)(,(\d*))?\}/.exec(p.slice(i));
      if (dialect.sed && none) throw new Bad('Invalid preceding regular expression');
      if (dialect.sed && !m) throw new Bad(p.slice(i).includes('}') ? 'Invalid content of \\{\\}' : 'Unmatched \\{');
      if (!m || none) addAtom('\\{');
      else {
        quantify(interval(m[1]!, m[2], m[3]));
        i += m[0].length;
      }
    } else if (extended && c === '(') {
      open.push(out.length);
      groups++;
      boundary('(');
    } else if (extended && c === ')') {
      const at = open.pop();
      if (at === undefined && dialect.sed) throw new Bad('Unmatched ) or \\)');
      if (at === undefined) addAtom('\\)');
      else {
        out += ')';
        atom = at;
        quantified = false;
      }
    } else if (extended && c === '|') {
      // mawk refuses an empty alternative (`b|`, `|b`, `(|b)`); grep and sed take it as matching the empty string.
      if (dialect.awk && (i === 1 || (/[(|]/.test(p[i - 2]!) && !escapedAt(p, i - 2)) || i >= p.length || /[)|]/.test(p[i]!))) throw new Bad('missing operand');
      boundary('|');
    } else addAtom(literal(c));
  }
  if (open.length > 0) throw new Bad('Unmatched ( or \\(');
  return { source: out, groups };
}

/** Whether `p[k]` is escaped (an odd number of backslashes before it). */
function escapedAt(p: string, k: number): boolean {
  let n = 0;
  while (k - 1 - n >= 0 && p[k - 1 - n] === '\\') n++;
  return n % 2 === 1;
}

/** `{m,n}` checked as GNU checks it (`Invalid content of \{\}` when m > n or too large). */
function interval(min: string, comma: string | undefined, max: string | undefined): string {
  const lo = min === '' ? 0 : Number(min);
  const hi = comma === undefined ? lo : max === '' || max === undefined ? Infinity : Number(max);
  if (hi < lo || lo > 32767 || (hi !== Infinity && hi > 32767)) throw new Bad('Invalid content of \\{\\}');
  return `{${lo},${hi === Infinity ? '' : hi}}`;
}

/**
 * One matcher for `patterns` in `syntax` (each alternative matching as GNU matches it), `-i`, `-w`, `-x` applied.
 * The regex has the `g` (and `u` when it compiles so) flags a caller can run with `exec` from any `lastIndex`, and `d`
 * when a Perl pattern holds `\K`: a match then starts where its set `KEEP_OUT` group sits (`matchStart`). Under
 * `nullData` (-z) a newline is an ordinary character of the NUL-ended line, so a POSIX `.` matches it (`s`).
 */
export function compileGrep(patterns: string[], syntax: GrepSyntax, o: { ignoreCase: boolean; word: boolean; line: boolean; nullData?: boolean }): Compiled {
  const warnings: string[] = [];
  const parts: string[] = [];
  let offset = 0;
  const keepOuts: PerlSerial = { n: 0 };
  const mods = new Set<string>();
  try {
    for (const p of patterns) {
      if (syntax === 'fixed') parts.push([...p].map(literal).join(''));
      else if (syntax === 'perl') parts.push(perlSource(p, keepOuts, mods));
      else {
        const { source, groups } = posix(p, syntax === 'extended', offset, warnings);
        parts.push(source);
        offset += groups;
      }
    }
  } catch (err) {
    if (err instanceof Bad) return { error: `grep: ${err.message}` };
    if (err instanceof PerlRefusal) return { error: err.message };
    throw err;
  }
  let body = parts.map((s) => `(?:${s})`).join('|');
  if (o.line) body = `^(?:${body})$`;
  else if (o.word) body = `(?<!${WORD})(?:${body})(?!${WORD})`;
  const flags = `g${o.ignoreCase || mods.has('i') ? 'i' : ''}${mods.has('s') || (o.nullData === true && syntax !== 'perl') ? 's' : ''}${keepOuts.n > 0 ? 'd' : ''}`;
  try {
    return { regex: new RegExp(body, `${flags}u`), warnings };
  } catch {
    try {
      return { regex: new RegExp(body, flags), warnings };
    } catch {
      return { error: syntax === 'perl' ? 'grep: unmatched parentheses or invalid Perl pattern' : 'grep: Invalid regular expression' };
    }
  }
}

/** Where a match of a `compileGrep` regex starts as grep reports it: at its `\K` when one took part, else its index. */
export function matchStart(m: RegExpExecArray): number {
  const at = m.indices?.groups;
  if (!at) return m.index;
  let start = m.index;
  for (const [name, span] of Object.entries(at)) if (name.startsWith(KEEP_OUT) && span) start = Math.max(start, span[0]);
  return start;
}

/**
 * An awk regular expression (an ERE over bytes, with awk's escapes; `{` is a literal and `.` matches a newline, as in
 * mawk 1.3.4) as a JS RegExp without flags, or the reason it is malformed (mawk's wording comes from the caller).
 */
export function awkRegExp(p: string): RegExp | { error: string } {
  try {
    return new RegExp(posix(p, true, 0, [], AWK).source);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * GNU sed's message for a malformed regex (`Unmatched ( or \(`, `Invalid preceding regular expression`, …), or
 * undefined when `p` compiles; and the number of groups it has (for the `s` replacement's `\N` check).
 */
export function sedRegexCheck(p: string, extended: boolean): { error?: string; groups: number } {
  try {
    return { groups: posix(p, extended, 0, [], SED).groups };
  } catch (err) {
    if (err instanceof Bad) return { error: err.message, groups: 0 };
    throw err;
  }
}
