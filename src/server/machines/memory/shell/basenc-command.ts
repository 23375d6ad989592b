/**
 * `base64`, `base32` and `basenc` (`--base64`, `--base64url`, `--base32`, `--base32hex`, `--base16`) as GNU
 * coreutils runs them: encoding wrapped at `-w` columns (76; 0 never), decoding that skips newlines, stops at the
 * first byte outside the alphabet (`-i` skips those instead) or at a cut-off final group, writes what it decoded up
 * to there and fails with `base64: invalid input`.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/base64-invocation.html
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { readOperand, walkArgs, type InputCtx } from './text-input.ts';

interface Encoding {
  alphabet: string;
  /** Bits per character. */
  bits: number;
  /** Whether groups are padded with `=`. */
  padded: boolean;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ENCODINGS: Record<string, Encoding> = {
  base64: { alphabet: `${B64}+/`, bits: 6, padded: true },
  base64url: { alphabet: `${B64}-_`, bits: 6, padded: true },
  base32: { alphabet: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', bits: 5, padded: true },
  base32hex: { alphabet: '0123456789ABCDEFGHIJKLMNOPQRSTUV', bits: 5, padded: true },
  base16: { alphabet: '0123456789ABCDEF', bits: 4, padded: false },
};

/** Characters per group and bytes per group of an encoding (4/3 for base64, 8/5 for base32, 2/1 for base16). */
const group = (e: Encoding) => (e.bits === 6 ? [4, 3] : e.bits === 5 ? [8, 5] : [2, 1]) as [number, number];

/** `bytes` (latin1) encoded, without wrapping. */
export function encode(bytes: string, e: Encoding): string {
  let out = '';
  let acc = 0;
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    acc = (acc << 8) | bytes.charCodeAt(i);
    n += 8;
    while (n >= e.bits) {
      n -= e.bits;
      out += e.alphabet[(acc >> n) & ((1 << e.bits) - 1)];
    }
    acc &= (1 << n) - 1;
  }
  if (n > 0) out += e.alphabet[(acc << (e.bits - n)) & ((1 << e.bits) - 1)];
  const [chars] = group(e);
  if (e.padded && out.length % chars !== 0) out += '='.repeat(chars - (out.length % chars));
  return out;
}

/** `text` decoded: the bytes up to the first fault, and whether there was one. */
export function decode(text: string, e: Encoding, ignoreGarbage: boolean): { bytes: string; bad: boolean } {
  const [chars] = group(e);
  let bytes = '';
  let acc = 0;
  let n = 0;
  let inGroup = 0;
  let padding = false;
  const flush = () => {
    while (n >= 8) {
      n -= 8;
      bytes += String.fromCharCode((acc >> n) & 0xff);
    }
  };
  for (const c of text) {
    if (c === '\n') continue;
    if (c === '=' && e.padded) {
      // Padding may only end a group that has at least two characters.
      if (inGroup < 2) return { bytes, bad: true };
      padding = true;
      if (++inGroup === chars) {
        inGroup = 0;
        padding = false;
        acc = 0;
        n = 0;
      }
      continue;
    }
    const v = e.alphabet.indexOf(c);
    if (v < 0 || padding) {
      if (ignoreGarbage && !padding) continue;
      return { bytes, bad: true };
    }
    acc = ((acc << e.bits) | v) & 0xffffff;
    n += e.bits;
    flush();
    if (++inGroup === chars) {
      inGroup = 0;
      acc = 0;
      n = 0;
    }
  }
  return { bytes, bad: inGroup !== 0 };
}

async function run(cmd: string, args: string[], ctx: InputCtx): Promise<ExecResult> {
  let enc: Encoding | undefined = cmd === 'basenc' ? undefined : ENCODINGS[cmd];
  let decoding = false;
  let ignore = false;
  let wrap = 76;
  const walked = walkArgs(args, (a, next) => {
    const name = a.startsWith('--') ? a.split('=')[0]! : undefined;
    if (name && cmd === 'basenc' && ENCODINGS[name.slice(2)]) enc = ENCODINGS[name.slice(2)];
    else if (a === '-d' || a === '-D' || a === '--decode') decoding = true;
    else if (a === '-i' || a === '--ignore-garbage') ignore = true;
    else if (a.startsWith('-w') || name === '--wrap') {
      const v = a.startsWith('-w') ? (a.length > 2 ? a.slice(2) : next()) : a.includes('=') ? a.slice(a.indexOf('=') + 1) : next();
      if (!/^\d+$/.test(v ?? '')) return { stdout: '', stderr: `${cmd}: invalid wrap size: ‘${v ?? ''}’\n`, exitCode: 1 };
      wrap = Number(v);
    } else if (/^-[di]+$/.test(a)) {
      decoding ||= a.includes('d');
      ignore ||= a.includes('i');
    } else return unsupported(cmd, a);
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  if (!enc) return { stdout: '', stderr: `basenc: missing encoding type\nTry 'basenc --help' for more information.\n`, exitCode: 1 };
  const names = walked.operands;
  if (names.length > 1) return { stdout: '', stderr: `${cmd}: extra operand ‘${names[1]}’\nTry '${cmd} --help' for more information.\n`, exitCode: 1 };
  const input = await readOperand(ctx, names[0] ?? '-');
  // A directory opens and then fails to read: GNU says so without its name.
  if ('error' in input) return { stdout: '', stderr: input.error === 'Is a directory' ? `${cmd}: read error: Is a directory\n` : `${cmd}: ${names[0] ?? '-'}: ${input.error}\n`, exitCode: 1 };
  if (decoding) {
    const { bytes, bad } = decode(input.bytes, enc, ignore);
    return { ...bytesOutput(unsafeBytesFromLatin1(bytes)), stderr: bad ? `${cmd}: invalid input\n` : '', exitCode: bad ? 1 : 0 };
  }
  const text = encode(input.bytes, enc);
  // -w 0 writes one line without a newline.
  if (wrap === 0 || text === '') return { stdout: text, stderr: '', exitCode: 0 };
  return { stdout: `${(text.match(new RegExp(`.{1,${wrap}}`, 'g')) ?? []).join('\n')}\n`, stderr: '', exitCode: 0 };
}

/** `base64`, `base32` and `basenc` for just-bash's `customCommands`. */
export function basencCommands(): CustomCommand[] {
  return ['base64', 'base32', 'basenc'].map((name) => defineCommand(name, (args, ctx) => run(name, args, ctx)));
}
