/**
 * glibc's `iconv` for the shell engine, over iconv-lite: `-f FROM -t TO[//TRANSLIT][//IGNORE]`, `-c`, `-o FILE`,
 * `-l`, files or stdin. Input that is not valid in FROM, or a character TO cannot hold, stops the conversion with
 * `iconv: illegal input sequence at position N` (N: the byte offset in the input), exit 1; `//IGNORE` drops such
 * characters and still exits 1; `-c` drops them and exits 0; `//TRANSLIT` spells them in ASCII as glibc's C.UTF-8
 * locale does (é → e, ß → ss, € → EUR, “ → ", unknown → ?).
 * @see iconv(1) (glibc), https://www.gnu.org/software/libc/manual/html_node/iconv-Invocation.html
 */
import iconvLite from 'iconv-lite';
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { EBADF, stdinIsClosed } from './closed-stdin.ts';

const HINT = 'run spritzer with --exec sandbox';

/** glibc's transliterations (C.UTF-8) of characters that do not decompose to ASCII. */
const TRANSLIT: Record<string, string> = {
  'ß': 'ss', 'æ': 'ae', 'Æ': 'AE', 'œ': 'oe', 'Œ': 'OE', 'ø': 'o', 'Ø': 'O', 'đ': 'd', 'Đ': 'D', 'ł': 'l', 'Ł': 'L', 'ð': 'd',
  'þ': 'th', 'Þ': 'TH', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '¢': 'c', '©': '(C)', '®': '(R)', '™': '(TM)', '“': '"', '”': '"',
  '„': '"', '‘': "'", '’': "'", '‚': "'", '–': '-', '—': '--', '…': '...', '•': 'o', '¡': '!', '±': '+-', '×': 'x', '÷': '/',
  'µ': 'u', '¼': ' 1/4 ', '½': ' 1/2 ', '¾': ' 3/4 ', '·': '.', '«': '<<', '»': '>>', '¦': '|', '→': '->', '≤': '<=', '≥': '>=',
  '≠': '!=', '\u00a0': ' ',
};

/** Encoding names as glibc accepts them (case-insensitive, `UTF8` for `UTF-8`), for iconv-lite. */
const canonical = (name: string) => {
  const n = name.toUpperCase();
  if (n === 'UTF8') return 'UTF-8';
  if (n === 'ASCII' || n === 'US-ASCII' || n === 'ANSI_X3.4-1968') return 'ascii';
  return n;
};

async function iconv(args: string[], ctx: CommandContext): Promise<ExecResult> {
  let from = 'UTF-8';
  let to = 'UTF-8';
  let omit = false;
  let output: string | undefined;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const long = /^--(from-code|to-code|output)=(.*)$/.exec(a);
    if (a === '-f' || a === '--from-code') from = args[++i] ?? '';
    else if (a === '-t' || a === '--to-code') to = args[++i] ?? '';
    else if (a === '-o' || a === '--output') output = args[++i];
    else if (long) [from, to, output] = long[1] === 'from-code' ? [long[2]!, to, output] : long[1] === 'to-code' ? [from, long[2]!, output] : [from, to, long[2]];
    else if (/^-f.+/.test(a)) from = a.slice(2);
    else if (/^-t.+/.test(a)) to = a.slice(2);
    else if (a === '-c') omit = true;
    else if (a === '-s' || a === '--silent') continue;
    else if (a === '-l' || a === '--list') return { stdout: 'ASCII//\nISO-8859-1//\nISO-8859-15//\nLATIN1//\nUTF-8//\nUTF-16//\nUTF-16BE//\nUTF-16LE//\nUTF-32//\nWINDOWS-1252//\n', stderr: '', exitCode: 0 };
    else if (a.startsWith('-') && a !== '-') return { stdout: '', stderr: `iconv: option ${a} is not available in the shell engine; ${HINT}\n`, exitCode: 2 };
    else files.push(a);
  }
  const [target, ...suffixes] = to.split('//');
  const translit = suffixes.some((s) => s.toUpperCase() === 'TRANSLIT');
  const ignore = suffixes.some((s) => s.toUpperCase() === 'IGNORE');
  const src = canonical(from.split('//')[0]!);
  const dst = canonical(target!);
  if (!iconvLite.encodingExists(src) || !iconvLite.encodingExists(dst)) {
    // glibc finds no conversion module for the name.
    return { stdout: '', stderr: 'iconv: failed to start conversion processing: No such file or directory\n', exitCode: 1 };
  }
  let out = Buffer.alloc(0);
  let failed = '';
  for (const name of files.length > 0 ? files : ['-']) {
    let input: Buffer;
    if (name === '-' && stdinIsClosed(ctx)) return { stdout: out.toString('latin1'), stderr: `iconv: error while reading the input: ${EBADF}\n`, exitCode: 1 };
    if (name === '-') input = Buffer.from(String(ctx.stdin ?? ''), 'latin1');
    else {
      try {
        const b = await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, name));
        input = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
      } catch {
        return { stdout: out.toString('latin1'), stderr: `iconv: cannot open input file \`${name}': No such file or directory\n`, exitCode: 1 };
      }
    }
    const r = convert(input, src, dst, { translit, drop: ignore || omit });
    out = Buffer.concat([out, r.bytes]);
    if (r.badAt !== undefined && !(ignore || omit)) {
      failed = `iconv: illegal input sequence at position ${r.badAt}\n`;
      break;
    }
    if (r.dropped && ignore && !omit) failed = `iconv: illegal input sequence at position ${input.length}\n`;
    if (r.incomplete) {
      failed = 'iconv: incomplete character or shift sequence at end of buffer\n';
      break;
    }
  }
  if (output !== undefined) await ctx.fs.writeFile(ctx.fs.resolvePath(ctx.cwd, output), out);
  const stdout = output === undefined ? bytesOutput(unsafeBytesFromLatin1(out.toString('latin1'))) : { stdout: '' };
  return { ...stdout, stderr: failed, exitCode: failed ? 1 : 0 };
}

/**
 * `input` from `src` to `dst`: the bytes converted up to the first character that is invalid or cannot be written
 * (its input byte offset in `badAt`), or all of them with such characters dropped (`drop`) or transliterated.
 */
function convert(whole: Buffer, src: string, dst: string, o: { translit: boolean; drop: boolean }): { bytes: Buffer; badAt?: number; dropped: boolean; incomplete?: boolean } {
  const chunks: Buffer[] = [];
  // A character cut off by the end of the input is converted no further, and named as glibc names it.
  const cut = incompleteTail(whole, src);
  const input = whole.subarray(0, whole.length - cut);
  let dropped = false;
  let offset = 0;
  // One character at a time, with its input byte offset (to name where a bad one is).
  const chars: Array<{ ch: string; at: number; bad: boolean }> = [];
  if (src === 'UTF-8') {
    for (let i = 0; i < input.length; ) {
      const len = utf8Length(input, i);
      chars.push(len === 0 ? { ch: '', at: i, bad: true } : { ch: input.toString('utf8', i, i + len), at: i, bad: false });
      i += len || 1;
    }
  } else for (const ch of iconvLite.decode(input, src)) chars.push({ ch, at: offset++, bad: false });
  // glibc's UTF-16 and UTF-32 are little-endian here (x86) and start with a byte-order mark.
  const bom = dst === 'UTF-16' || dst === 'UTF-32';
  const enc = dst === 'UTF-16' ? 'utf-16le' : dst === 'UTF-32' ? 'utf-32le' : dst;
  for (const { ch, at, bad } of chars) {
    let text = ch;
    if (!bad && !encodable(ch, dst) && o.translit) text = transliterate(ch);
    if (bad || !encodable(text, dst)) {
      if (!o.drop) return { bytes: Buffer.concat(chunks), badAt: at, dropped };
      dropped = true;
      continue;
    }
    // The byte-order mark comes with the first character written.
    if (bom && chunks.length === 0) chunks.push(iconvLite.encode('\ufeff', enc));
    chunks.push(iconvLite.encode(text, enc));
  }
  return { bytes: Buffer.concat(chunks), dropped, incomplete: cut > 0 };
}

/** How many bytes at the end of `b` begin a character of `src` that the input ends before finishing (0 when none). */
function incompleteTail(b: Buffer, src: string): number {
  const unit = /^UTF-?16/.test(src) || /^UCS-?2/.test(src) ? 2 : /^UTF-?32/.test(src) || /^UCS-?4/.test(src) ? 4 : 0;
  if (unit > 0) return b.length % unit;
  if (src !== 'UTF-8') return 0;
  // The last lead byte, if the continuation bytes after it are fewer than it announces.
  for (let k = 1; k <= 3 && k <= b.length; k++) {
    const c = b[b.length - k]!;
    if ((c & 0xc0) === 0x80) continue;
    const len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    return len > k ? k : 0;
  }
  return 0;
}

/** The length of the valid UTF-8 sequence at `i` (1–4), or 0 when the bytes there are not one. */
function utf8Length(b: Buffer, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (len === 0 || i + len > b.length) return 0;
  for (let k = 1; k < len; k++) if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  const cp = b.toString('utf8', i, i + len).codePointAt(0)!;
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
  return (len === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len === 4 && (cp < 0x10000 || cp > 0x10ffff)) ? 0 : len;
}

/** Whether every character of `text` is representable in `dst`. */
function encodable(text: string, dst: string): boolean {
  if (dst === 'ascii') return /^[\x00-\x7f]*$/.test(text);
  if (/^(UTF|UCS)/.test(dst)) return true;
  return iconvLite.decode(iconvLite.encode(text, dst), dst) === text;
}

/** A character spelled in ASCII as glibc's //TRANSLIT does: a table, else its letters without accents, else `?`. */
function transliterate(ch: string): string {
  if (TRANSLIT[ch] !== undefined) return TRANSLIT[ch]!;
  const bare = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return /^[\x00-\x7f]+$/.test(bare) ? bare : '?';
}

/** `iconv`, for just-bash's `customCommands`. */
export function iconvCommand(): CustomCommand {
  return defineCommand('iconv', (args, ctx) => iconv(args, ctx));
}
