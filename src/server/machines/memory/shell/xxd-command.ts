/**
 * `xxd` as vim's xxd prints it: the hex dump (`-c` bytes per line, `-g` bytes per group, `-u`, `-b` bits, `-e`
 * little-endian groups, `-s`
 * offset (negative: from the end of a file), `-o` added to the offsets shown, `-l` length), `-p` plain hex, `-i` a C array, and `-r` back to bytes (from a dump or, with `-p`, from
 * plain hex).
 * @see https://github.com/vim/vim/blob/master/runtime/doc/xxd.man
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { deliver, readOperand, type InputCtx } from './text-input.ts';

interface Options {
  cols: number | undefined;
  group: number | undefined;
  upper: boolean;
  bits: boolean;
  /** `-e`: little-endian groups. */
  littleEndian: boolean;
  plain: boolean;
  include: boolean;
  reverse: boolean;
  seek: number;
  /** `-o N`: added to the offsets the dump shows. */
  offset: number;
  length: number;
}

const hex2 = (b: number, upper: boolean) => {
  const h = b.toString(16).padStart(2, '0');
  return upper ? h.toUpperCase() : h;
};
const printable = (s: string) => [...s].map((c) => (c >= ' ' && c <= '~' ? c : '.')).join('');

/**
 * The dump of `data` starting at address `base`: hex (`-g` bytes per group), bits (`-b`) or little-endian hex (`-e`:
 * each group's bytes in reverse order). Laid out as xxd does, in a line buffer where byte `p` of a line goes to column
 * `addrlen + 1 + grplen * x / group` (x = p, or p ^ (group - 1) with `-e`) and its character to column
 * `addrlen + 3 + (grplen * cols - 1) / group + p`, the line ending after the last character written: so with `-e` a
 * short last group is right-aligned, and a line width that is no multiple of the group lets the text column
 * overwrite hex digits, both as real xxd prints them.
 * @see https://github.com/vim/vim/blob/master/src/xxd/xxd.c (the HEX_NORMAL / HEX_BITS / HEX_LITTLEENDIAN loop)
 */
function dump(data: string, base: number, o: Options): string {
  const cols = o.cols ?? (o.bits ? 6 : 16);
  const requested = o.group ?? (o.bits ? 1 : o.littleEndian ? 4 : 2);
  const group = requested < 1 || requested > cols ? cols : requested;
  const digits = o.bits ? 8 : 2;
  const grplen = group * digits + 1;
  const hexx = o.upper ? '0123456789ABCDEF' : '0123456789abcdef';
  let out = '';
  for (let at = 0; at < data.length; at += cols) {
    const address = `${(base + at).toString(16).padStart(8, '0')}:`;
    const line: string[] = [...address];
    let end = 0;
    const put = (col: number, ch: string) => {
      while (line.length < col) line.push(' ');
      line[col] = ch;
    };
    const count = Math.min(cols, data.length - at);
    for (let p = 0; p < count; p++) {
      const b = data.charCodeAt(at + p);
      const x = o.littleEndian ? p ^ (group - 1) : p;
      const col = address.length + 1 + Math.floor((grplen * x) / group);
      const cell = o.bits ? b.toString(2).padStart(8, '0') : hexx[b >> 4]! + hexx[b & 15]!;
      for (let k = 0; k < cell.length; k++) put(col + k, cell[k]!);
      end = address.length + 3 + Math.floor((grplen * cols - 1) / group) + p;
      put(end, b > 31 && b < 127 ? String.fromCharCode(b) : '.');
    }
    out += `${line.slice(0, end + 1).join('')}\n`;
  }
  return out;
}

/** The bytes of a dump (or plain hex with `plain`) read back, as `xxd -r`. */
function reverse(text: string, plain: boolean): string {
  let out = '';
  if (plain) {
    const digits = text.replace(/[^0-9a-fA-F]/g, '');
    for (let k = 0; k + 1 < digits.length; k += 2) out += String.fromCharCode(parseInt(digits.slice(k, k + 2), 16));
    return out;
  }
  for (const line of text.split('\n')) {
    const m = /^\s*([0-9a-fA-F]+):\s?(.*)$/.exec(line);
    if (!m) continue;
    const at = parseInt(m[1]!, 16);
    // The hex column ends at the first double space (the text column follows).
    const digits = m[2]!.split(/ {2}/)[0]!.replace(/[^0-9a-fA-F]/g, '');
    if (at > out.length) out = out.padEnd(at, '\0');
    let bytes = '';
    for (let k = 0; k + 1 < digits.length; k += 2) bytes += String.fromCharCode(parseInt(digits.slice(k, k + 2), 16));
    out = out.slice(0, at) + bytes + out.slice(at + bytes.length);
  }
  return out;
}

async function xxd(args: string[], ctx: InputCtx): Promise<ExecResult> {
  const o: Options = { cols: undefined, group: undefined, upper: false, bits: false, littleEndian: false, plain: false, include: false, reverse: false, seek: 0, offset: 0, length: Infinity };
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') {
      names.push(a);
      continue;
    }
    const m = /^-(c|g|s|l|o|cols|groupsize|seek|len|offset)(?:=?(.*))?$/.exec(a);
    if (m) {
      const v = m[2] !== undefined && m[2] !== '' ? m[2] : args[++i];
      const n = v === undefined ? NaN : Number(v.replace(/^\+/, ''));
      if (!Number.isFinite(n)) return { stdout: '', stderr: `xxd: option ${a} requires a number\n`, exitCode: 1 };
      if (m[1] === 'c' || m[1] === 'cols') o.cols = n;
      else if (m[1] === 'g' || m[1] === 'groupsize') o.group = n;
      else if (m[1] === 's' || m[1] === 'seek') o.seek = n;
      else if (m[1] === 'o' || m[1] === 'offset') o.offset = n;
      else o.length = n;
      continue;
    }
    const flag = a.replace(/^--?/, '');
    if (flag === 'u') o.upper = true;
    // -b, -e, -p and -i each choose the output's kind; the last one given wins, as in xxd.
    else if (flag === 'b' || flag === 'bits') Object.assign(o, { bits: true, littleEndian: false, plain: false, include: false });
    else if (flag === 'e') Object.assign(o, { bits: false, littleEndian: true, plain: false, include: false });
    else if (flag === 'p' || flag === 'ps' || flag === 'postscript' || flag === 'plain') Object.assign(o, { bits: false, littleEndian: false, plain: true, include: false });
    else if (flag === 'i' || flag === 'include') Object.assign(o, { bits: false, littleEndian: false, plain: false, include: true });
    else if (flag === 'r' || flag === 'revert') o.reverse = true;
    else if (/^r?p$|^pr$/.test(flag)) (o.reverse = true), (o.plain = true);
    else return unsupported('xxd', a);
  }
  if (o.littleEndian && !o.reverse && o.group !== undefined && o.group > 0 && (o.group & (o.group - 1)) !== 0) {
    return { stdout: '', stderr: 'xxd: number of octets per group must be a power of 2 with -e.\n', exitCode: 1 };
  }
  const input = await readOperand(ctx, names[0] ?? '-');
  if ('error' in input) return { stdout: '', stderr: `xxd: ${names[0]}: ${input.error}\n`, exitCode: 2 };
  const failure = (why: string): ExecResult => ({ stdout: '', stderr: `xxd: ${names[1]}: ${why}\n`, exitCode: 2 });
  if (o.reverse) return deliver(ctx, reverse(input.bytes, o.plain), names[1], failure);
  // A negative -s counts from the end of a file; xxd cannot seek back in a pipe, nor before the start.
  if (o.seek < 0) {
    if (!input.regular || input.bytes.length + o.seek < 0) return { stdout: '', stderr: 'xxd: Sorry, cannot seek.\n', exitCode: 4 };
    o.seek += input.bytes.length;
  }
  // A pipe is skipped by reading: one that ends before the offset cannot be sought (a file can, past its end).
  if (!input.regular && o.seek > input.bytes.length) return { stdout: '', stderr: 'xxd: Sorry, cannot seek.\n', exitCode: 4 };
  const data = input.bytes.slice(o.seek, o.length === Infinity ? undefined : o.seek + o.length);
  let out: string;
  if (o.plain) {
    const cols = o.cols ?? 30;
    out = '';
    for (let at = 0; at < data.length; at += cols) out += `${[...data.slice(at, at + cols)].map((c) => hex2(c.charCodeAt(0), o.upper)).join('')}\n`;
  } else if (o.include) {
    const cols = o.cols ?? 12;
    const lines: string[] = [];
    for (let at = 0; at < data.length; at += cols) lines.push(`  ${[...data.slice(at, at + cols)].map((c) => `0x${hex2(c.charCodeAt(0), o.upper)}`).join(', ')}`);
    const body = lines.join(',\n');
    if (names[0] === undefined || names[0] === '-') out = body ? `${body}\n` : '';
    else {
      const id = names[0].replace(/[^A-Za-z0-9]/g, '_').replace(/^(\d)/, '__$1');
      out = `unsigned char ${id}[] = {\n${body ? `${body}\n` : ''}};\nunsigned int ${id}_len = ${data.length};\n`;
    }
  } else out = dump(data, o.seek + o.offset, o);
  if (names[1] !== undefined) return deliver(ctx, out, names[1], failure);
  return { ...bytesOutput(unsafeBytesFromLatin1(out)), stderr: '', exitCode: 0 };
}

/** `xxd` for just-bash's `customCommands`. */
export function xxdCommands(): CustomCommand[] {
  return [defineCommand('xxd', (args, ctx) => xxd(args, ctx))];
}
