/**
 * `od` as GNU coreutils prints it: `-t` types (`a c d o u x` with sizes 1/2/4/8 or C/S/I/L, `f` with 4/8 or F/D
 * as the shortest `%g` that reads back the same value, `z` for the text column) and the traditional `-b -c -d -o -s -x -i -l`, several types lined up in shared columns (GNU's padding),
 * `-A d|o|x|n` addresses, `-j` skip, `-N` limit, `-w` width, `*` for repeated lines (not with `-v`), operands read
 * as one stream. Little-endian, as the sprite's x86-64 machine.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/od-invocation.html
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { readOperand, type InputCtx } from './text-input.ts';

interface Spec {
  kind: 'a' | 'c' | 'd' | 'o' | 'u' | 'x' | 'f';
  size: number;
  /** Characters of the widest value. */
  width: number;
  text: boolean;
  pad: number;
}

const WIDTHS: Record<string, Record<number, number>> = {
  o: { 1: 3, 2: 6, 4: 11, 8: 22 },
  x: { 1: 2, 2: 4, 4: 8, 8: 16 },
  u: { 1: 3, 2: 5, 4: 10, 8: 20 },
  d: { 1: 4, 2: 6, 4: 11, 8: 20 },
};
const SIZE_LETTERS: Record<string, number> = { C: 1, S: 2, I: 4, L: 8 };
const NAMES = ['nul', 'soh', 'stx', 'etx', 'eot', 'enq', 'ack', 'bel', 'bs', 'ht', 'nl', 'vt', 'ff', 'cr', 'so', 'si', 'dle', 'dc1', 'dc2', 'dc3', 'dc4', 'nak', 'syn', 'etb', 'can', 'em', 'sub', 'esc', 'fs', 'gs', 'rs', 'us', 'sp'];
const ESCAPES: Record<number, string> = { 0: '\\0', 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
const TRADITIONAL: Record<string, string> = { f: 'fF', e: 'fD', F: 'fD', a: 'a', b: 'o1', c: 'c', d: 'u2', o: 'o2', s: 'd2', x: 'x2', i: 'dI', l: 'dL', h: 'x2', B: 'o2', D: 'u4', H: 'x4', X: 'x4', O: 'o4', I: 'dL', L: 'dL' };

const fail = (text: string): ExecResult => ({ stdout: '', stderr: `od: ${text}\n`, exitCode: 1 });

/** The specs of one `-t` argument (`x1z`, `cx2`, `d`), or GNU's complaint. */
function typeSpecs(arg: string): Spec[] | string {
  const specs: Spec[] = [];
  let i = 0;
  while (i < arg.length) {
    const kind = arg[i++]!;
    if (kind === 'a' || kind === 'c') {
      specs.push({ kind, size: 1, width: 3, text: false, pad: 0 });
    } else if (kind in WIDTHS) {
      let size = 4;
      const m = /^(\d+|[CSIL])/.exec(arg.slice(i));
      if (m) {
        size = SIZE_LETTERS[m[1]!] ?? Number(m[1]);
        i += m[1]!.length;
        if (!WIDTHS[kind]![size]) return `invalid type string '${arg}';\nthis system doesn't provide a ${size}-byte integral type`;
      }
      specs.push({ kind: kind as Spec['kind'], size, width: WIDTHS[kind]![size]!, text: false, pad: 0 });
    } else if (kind === 'f') {
      const m = /^(\d+|[FDL])/.exec(arg.slice(i));
      const size = m ? ({ F: 4, D: 8, L: 16 } as Record<string, number>)[m[1]!] ?? Number(m[1]) : 8;
      if (m) i += m[1]!.length;
      // long double (16 bytes on x86-64) has no JavaScript counterpart.
      if (size === 16) return 'f';
      if (size !== 4 && size !== 8) return `invalid type string '${arg}';\nthis system doesn't provide a ${size}-byte floating point type`;
      specs.push({ kind: 'f', size, width: size === 4 ? 15 : 24, text: false, pad: 0 });
    } else return `invalid character '${kind}' in type string '${arg}'`;
    if (arg[i] === 'z') {
      specs[specs.length - 1]!.text = true;
      i++;
    }
  }
  return specs;
}

/** A byte count with GNU's prefixes and suffixes (`0x10`, `010`, `1K`, `2b`), or undefined. */
function byteCount(text: string): number | undefined {
  const m = /^(0x[0-9a-fA-F]+|0[0-7]*|[1-9]\d*)(b|kB|K|KiB|MB|M|MiB|GB|G|GiB)?$/.exec(text);
  if (!m) return undefined;
  const n = m[1]!.startsWith('0x') ? parseInt(m[1]!, 16) : m[1]!.startsWith('0') ? parseInt(m[1]!, 8) : Number(m[1]);
  const unit: Record<string, number> = { b: 512, kB: 1000, K: 1024, KiB: 1024, MB: 1e6, M: 1024 ** 2, MiB: 1024 ** 2, GB: 1e9, G: 1024 ** 3, GiB: 1024 ** 3 };
  return n * (m[2] ? unit[m[2]]! : 1);
}

/** One value of `spec` at `bytes[at…]` (zero-filled past the end), unpadded. */
function value(spec: Spec, bytes: string, at: number): string {
  if (spec.kind === 'a' || spec.kind === 'c') {
    const b = bytes.charCodeAt(at);
    if (spec.kind === 'a') {
      const c = b & 0x7f;
      return c <= 32 ? NAMES[c]! : c === 127 ? 'del' : String.fromCharCode(c);
    }
    if (ESCAPES[b] !== undefined) return ESCAPES[b]!;
    return b >= 32 && b < 127 ? String.fromCharCode(b) : b.toString(8).padStart(3, '0');
  }
  if (spec.kind === 'f') {
    const view = new DataView(new ArrayBuffer(spec.size));
    for (let k = 0; k < spec.size; k++) view.setUint8(k, at + k < bytes.length ? bytes.charCodeAt(at + k) : 0);
    return floatText(spec.size === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true), spec.size, (view.getUint8(spec.size - 1) & 0x80) !== 0);
  }
  let n = 0n;
  for (let k = spec.size - 1; k >= 0; k--) n = (n << 8n) | BigInt(at + k < bytes.length ? bytes.charCodeAt(at + k) : 0);
  if (spec.kind === 'd' && n >= 1n << BigInt(spec.size * 8 - 1)) n -= 1n << BigInt(spec.size * 8);
  if (spec.kind === 'o') return n.toString(8).padStart(spec.width, '0');
  if (spec.kind === 'x') return n.toString(16).padStart(spec.width, '0');
  return n.toString();
}

/** `v` as C's `%.*g` with `p` significant digits. */
function cG(v: number, p: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mant, exp] = v.toExponential(p - 1).split('e') as [string, string];
  const x = Number(exp);
  const trim = (t: string) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  if (x < -4 || x >= p) return `${trim(mant)}e${x < 0 ? '-' : '+'}${String(Math.abs(x)).padStart(2, '0')}`;
  return trim(v.toFixed(Math.max(0, p - 1 - x)));
}

/**
 * A float as GNU od prints it (gnulib's ftoastr): the fewest `%g` digits that read back as the same `size`-byte
 * value; `inf`, and `nan` with the sign bit's `-`.
 */
function floatText(v: number, size: number, negative: boolean): string {
  if (Number.isNaN(v)) return negative ? '-nan' : 'nan';
  if (!Number.isFinite(v)) return v < 0 ? '-inf' : 'inf';
  const same = (t: string) => (size === 4 ? Math.fround(Number(t)) === v : Number(t) === v);
  for (let p = 1; p < 17; p++) {
    const t = cG(v, p);
    if (same(t)) return t;
  }
  return cG(v, 17);
}

/** One output row of `spec` for a line of `n` bytes (of `perLine`), its pad spread as GNU's print functions do. */
function row(spec: Spec, line: string, perLine: number): string {
  const fields = perLine / spec.size;
  const blank = Math.floor((perLine - line.length) / spec.size);
  let out = '';
  let remaining = spec.pad;
  for (let i = fields, at = 0; i > blank; i--, at += spec.size) {
    const next = Math.floor((spec.pad * (i - 1)) / fields);
    out += value(spec, line, at).padStart(remaining - next + spec.width);
    remaining = next;
  }
  if (spec.text) {
    out += ' '.repeat(blank * (spec.width + 1));
    out += `  >${[...line].map((ch) => (ch >= ' ' && ch <= '~' ? ch : '.')).join('')}<`;
  }
  return out;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

async function od(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const specs: Spec[] = [];
  let radix = 'o';
  let skip = 0;
  let limit = Infinity;
  let width: number | undefined;
  let verbose = false;
  const files: string[] = [];
  const take = (arg: string): ExecResult | undefined => {
    const s = typeSpecs(arg);
    if (s === 'f') return unsupported('od', `-t ${arg}`);
    if (typeof s === 'string') return fail(s);
    specs.push(...s);
    return undefined;
  };
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!options || a === '-' || !a.startsWith('-')) {
      files.push(a);
      continue;
    }
    if (a === '--') {
      options = false;
      continue;
    }
    let failed: ExecResult | undefined;
    const long = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (long) {
      const [, name, inline] = long;
      const v = () => inline ?? args[++i] ?? '';
      if (name === 'address-radix') radix = v();
      else if (name === 'format') failed = take(v());
      else if (name === 'skip-bytes') skip = byteCount(v()) ?? NaN;
      else if (name === 'read-bytes') limit = byteCount(v()) ?? NaN;
      else if (name === 'width') width = inline === undefined ? 32 : Number(inline);
      else if (name === 'output-duplicates') verbose = true;
      else return unsupported('od', a);
    } else {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if ('AtjNw'.includes(c)) {
          const attached = a.slice(j + 1);
          if (c === 'w') width = attached === '' ? 32 : Number(attached);
          else {
            const v = attached !== '' ? attached : (args[++i] ?? '');
            if (c === 'A') radix = v;
            else if (c === 't') failed = take(v);
            else if (c === 'j') skip = byteCount(v) ?? NaN;
            else limit = byteCount(v) ?? NaN;
          }
          break;
        }
        if (c === 'v') verbose = true;
        else if (TRADITIONAL[c]) failed = take(TRADITIONAL[c]!);
        else return unsupported('od', `-${c}`);
        if (failed) break;
      }
    }
    if (failed) return failed;
  }
  if (!'odxn'.includes(radix) || radix.length !== 1) return fail(`invalid output address radix '${radix}'; it must be one character from [doxn]`);
  if (Number.isNaN(skip) || Number.isNaN(limit)) return fail('invalid number');
  if (specs.length === 0) specs.push(...(typeSpecs('o2') as Spec[]));
  const lcm = specs.reduce((l, s) => (l * s.size) / gcd(l, s.size), 1);
  const perLine = width ?? Math.max(16, lcm);
  if (!Number.isInteger(perLine) || perLine <= 0 || perLine % lcm !== 0) return fail(`invalid -w argument '${width}'`);
  // GNU's column sharing: every type's row is as wide as the widest; the difference is spread over its fields.
  const rowWidth = Math.max(...specs.map((s) => (s.width + 1) * (perLine / s.size)));
  for (const s of specs) s.pad = rowWidth - s.width * (perLine / s.size);

  let data = '';
  let stderr = '';
  let read = false;
  for (const f of files.length > 0 ? files : ['-']) {
    // `od -N` stops reading after its bytes, so it takes them from a device that never ends.
    const input = await readOperand(ctx, f, Number.isFinite(limit) ? skip + limit : undefined);
    if ('error' in input && input.readFailed) {
      // GNU od names stdin in quotes when its read fails, and again when closing it fails at exit.
      stderr += `od: 'standard input': ${input.error}\nod: standard input: ${input.error}\n`;
      read = true;
    } else if ('error' in input) stderr += `od: ${f}: ${input.error}\n`;
    else {
      data += input.bytes;
      read = true;
    }
  }
  // Nothing readable: GNU prints no address either.
  if (!read) return { stdout: '', stderr, exitCode: 1 };
  if (skip > data.length) return { stdout: '', stderr: `${stderr}od: cannot skip past end of combined input\n`, exitCode: 1 };
  data = data.slice(skip, skip + limit);
  const addr = (n: number) => (radix === 'n' ? '' : radix === 'x' ? n.toString(16).padStart(6, '0') : radix === 'd' ? String(n).padStart(7, '0') : n.toString(8).padStart(7, '0'));
  const indent = radix === 'n' ? '' : ' '.repeat(addr(0).length);
  let out = '';
  let previous: string | undefined;
  let starred = false;
  for (let at = 0; at < data.length; at += perLine) {
    const line = data.slice(at, at + perLine);
    if (!verbose && line === previous && line.length === perLine) {
      if (!starred) out += '*\n';
      starred = true;
      continue;
    }
    previous = line;
    starred = false;
    specs.forEach((s, k) => (out += `${k === 0 ? addr(skip + at) : indent}${row(s, line, perLine)}\n`));
  }
  if (radix !== 'n') out += `${addr(skip + data.length)}\n`;
  return { stdout: out, stderr, exitCode: stderr ? 1 : 0 };
}

/** `od` for just-bash's `customCommands`. */
export function odCommands(): CustomCommand[] {
  return [defineCommand('od', (args, ctx) => od(args, ctx))];
}
