/**
 * `tr` as GNU coreutils runs it, on bytes (just-bash's cannot name NUL: `tr '\0' x` changed nothing): the escapes
 * (`\n`, `\0`, `\NNN`…), ranges, `[:class:]`, `[=c=]`, `[c*n]`/`[c*]`, `-d`, `-s`, `-c`/`-C`, `-t`, and SET2
 * padded with its last byte as GNU pads it.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/tr-invocation.html
 */
import { bytesOutput, defineCommand, latin1FromBytes, unsafeBytesFromLatin1, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { copierOnClosedStdin, stdinIsClosed } from './closed-stdin.ts';

const TRY = "Try 'tr --help' for more information.\n";
const fail = (msg: string): ExecResult => ({ stdout: '', stderr: `tr: ${msg}\n`, exitCode: 1 });

const CLASSES: Record<string, (b: number) => boolean> = {
  alnum: (b) => /[A-Za-z0-9]/.test(String.fromCharCode(b)),
  alpha: (b) => /[A-Za-z]/.test(String.fromCharCode(b)),
  blank: (b) => b === 32 || b === 9,
  cntrl: (b) => b < 32 || b === 127,
  digit: (b) => b >= 48 && b <= 57,
  graph: (b) => b > 32 && b < 127,
  lower: (b) => b >= 97 && b <= 122,
  print: (b) => b >= 32 && b < 127,
  punct: (b) => b > 32 && b < 127 && !/[A-Za-z0-9]/.test(String.fromCharCode(b)),
  space: (b) => b === 32 || (b >= 9 && b <= 13),
  upper: (b) => b >= 65 && b <= 90,
  xdigit: (b) => /[0-9A-Fa-f]/.test(String.fromCharCode(b)),
};
const ESCAPES: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };

/** One element of a parsed set: a byte, or a repeat of a byte (`count` undefined: fill SET2 to SET1's length). */
type Item = { byte: number } | { repeat: number; count?: number };

/** The bytes of a set operand, with repeats left for the caller; or an error text. */
function parseSet(s: string, second: boolean): Item[] | string {
  const items: Item[] = [];
  // Each char of `s` is one byte (the operand's UTF-8 bytes).
  const escaped = (i: number): [number, number] => {
    if (s[i] !== '\\' || i + 1 >= s.length) return [s.charCodeAt(i), i + 1];
    const m = /^[0-7]{1,3}/.exec(s.slice(i + 1));
    if (m) return [parseInt(m[0], 8) & 0xff, i + 1 + m[0].length];
    const c = s[i + 1]!;
    return [ESCAPES[c] ?? c.charCodeAt(0), i + 2];
  };
  let i = 0;
  while (i < s.length) {
    const cls = /^\[:([a-z]+):\]/.exec(s.slice(i));
    if (cls) {
      const test = CLASSES[cls[1]!];
      if (!test) return `invalid character class '${cls[1]}'`;
      if (second && cls[1] !== 'lower' && cls[1] !== 'upper') return 'when translating, the only character classes that may appear in\nstring2 are \'upper\' and \'lower\'';
      for (let b = 0; b < 256; b++) if (test(b)) items.push({ byte: b });
      i += cls[0].length;
      continue;
    }
    const eq = /^\[=(.)=\]/.exec(s.slice(i));
    if (eq) {
      items.push({ byte: eq[1]!.charCodeAt(0) });
      i += eq[0].length;
      continue;
    }
    if (s[i] === '[' && i + 1 < s.length) {
      const [b, after] = escaped(i + 1);
      const rep = /^\*(\d*)\]/.exec(s.slice(after));
      if (rep) {
        if (!second) return `the [c*] repeat construct may not appear in string1`;
        items.push(rep[1] === '' || Number(rep[1]) === 0 ? { repeat: b } : { repeat: b, count: rep[1]!.startsWith('0') ? parseInt(rep[1]!, 8) : Number(rep[1]) });
        i = after + rep[0].length;
        continue;
      }
    }
    const [from, next] = escaped(i);
    if (s[next] === '-' && next + 1 < s.length) {
      const [to, after] = escaped(next + 1);
      if (to < from) return `range-endpoints of '${String.fromCharCode(from)}-${String.fromCharCode(to)}' are in reverse collating sequence order`;
      for (let b = from; b <= to; b++) items.push({ byte: b });
      i = after;
      continue;
    }
    items.push({ byte: from });
    i = next;
  }
  return items;
}

const bytesOf = (items: Item[]) => items.flatMap((it) => ('byte' in it ? [it.byte] : Array<number>(it.count ?? 0).fill(it.repeat)));

async function tr(args: string[], stdin: string): Promise<ExecResult> {
  let del = false;
  let squeeze = false;
  let complement = false;
  let truncate = false;
  const sets: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') options = false;
    else if (options && a.startsWith('--')) {
      const long: Record<string, () => void> = { '--delete': () => (del = true), '--squeeze-repeats': () => (squeeze = true), '--complement': () => (complement = true), '--truncate-set1': () => (truncate = true) };
      if (!long[a]) return unsupported('tr', a);
      long[a]!();
    } else if (options && a.startsWith('-') && a.length > 1) {
      for (const c of a.slice(1)) {
        if (c === 'd') del = true;
        else if (c === 's') squeeze = true;
        else if (c === 'c' || c === 'C') complement = true;
        else if (c === 't') truncate = true;
        else return unsupported('tr', `-${c}`);
      }
    } else sets.push(Buffer.from(a, 'utf8').toString('latin1'));
  }
  const translating = !del && sets.length >= 2;
  if (sets.length === 0) return fail(`missing operand\n${TRY}`.trimEnd());
  if (!del && !squeeze && sets.length < 2) return fail(`missing operand after '${sets[0]}'\nTwo strings must be given when translating.\n${TRY}`.trimEnd());
  if (sets.length > (del && !squeeze ? 1 : 2)) return fail(`extra operand '${sets[del && !squeeze ? 1 : 2]}'${del && !squeeze ? '\nOnly one string may be given when deleting without squeezing repeats.' : ''}\n${TRY}`.trimEnd());
  const p1 = parseSet(sets[0]!, false);
  if (typeof p1 === 'string') return fail(p1);
  let set1 = bytesOf(p1);
  if (complement) {
    const inSet = new Set(set1);
    set1 = [...Array(256).keys()].filter((b) => !inSet.has(b));
  }
  const p2 = sets[1] === undefined ? [] : parseSet(sets[1], translating);
  if (typeof p2 === 'string') return fail(p2);
  let set2: number[] = [];
  if (sets[1] !== undefined) {
    const fixed = bytesOf(p2).length;
    set2 = p2.flatMap((it) => ('byte' in it ? [it.byte] : Array<number>(it.count ?? Math.max(0, set1.length - fixed)).fill(it.repeat)));
  }
  if (translating) {
    if (set2.length === 0) return fail('when not truncating set1, string2 must be non-empty');
    if (truncate) set1 = set1.slice(0, set2.length);
    while (set2.length < set1.length) set2.push(set2[set2.length - 1]!);
  }
  const map = new Int16Array(256).map((_, b) => b);
  if (translating) set1.forEach((b, i) => (map[b] = set2[i]!));
  const deleted = new Set(del ? set1 : []);
  const squeezed = new Set(squeeze ? (translating || del ? set2 : set1) : []);
  let out = '';
  let last = -1;
  for (let i = 0; i < stdin.length; i++) {
    const b = stdin.charCodeAt(i);
    if (deleted.has(b)) continue;
    const t = map[b]!;
    if (squeezed.has(t) && t === last) continue;
    out += String.fromCharCode(t);
    last = t;
  }
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: '', exitCode: 0 };
}

/** `tr` for just-bash's `customCommands`. */
export function trCommands(): CustomCommand[] {
  return [defineCommand('tr', async (args, ctx) => (stdinIsClosed(ctx) ? copierOnClosedStdin('tr', await tr(args, '')) : tr(args, latin1FromBytes(ctx.stdin))))];
}
