/**
 * `cksum` (the POSIX CRC-32 and the byte count) and `sum` (the BSD checksum and 1 KiB blocks, or with `-s` the
 * System V checksum and 512-byte blocks) as GNU coreutils prints them; a file operand's name follows its sums,
 * stdin read without `-` has none.
 * @see https://www.gnu.org/software/coreutils/manual/html_node/cksum-invocation.html (and sum-invocation.html)
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { readOperand, walkArgs, type InputCtx } from './text-input.ts';

const CRC_TABLE = Array.from({ length: 256 }, (_, i) => {
  let c = i << 24;
  for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  return c >>> 0;
});

/** POSIX cksum's CRC of byte string `s`: MSB-first CRC-32 over the bytes, then over the length's bytes, inverted. */
export function posixCrc(s: string): number {
  let crc = 0;
  const step = (b: number) => (crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0);
  for (let i = 0; i < s.length; i++) step(s.charCodeAt(i));
  for (let n = s.length; n > 0; n = Math.floor(n / 256)) step(n % 256);
  return ~crc >>> 0;
}

/** `sum`'s line for byte string `s`: BSD (`%05d %5d`, 1 KiB blocks) or System V (`%d %d`, 512-byte blocks). */
function sumLine(s: string, sysv: boolean): string {
  if (sysv) {
    let total = 0;
    for (let i = 0; i < s.length; i++) total = (total + s.charCodeAt(i)) >>> 0;
    const r = (total & 0xffff) + (total >>> 16);
    return `${(r & 0xffff) + (r >>> 16)} ${Math.ceil(s.length / 512)}`;
  }
  let c = 0;
  for (let i = 0; i < s.length; i++) c = (((c >> 1) + ((c & 1) << 15)) + s.charCodeAt(i)) & 0xffff;
  return `${String(c).padStart(5, '0')} ${String(Math.ceil(s.length / 1024)).padStart(5)}`;
}

async function run(cmd: 'cksum' | 'sum', args: string[], ctx: InputCtx): Promise<ExecResult> {
  let sysv = false;
  const walked = walkArgs(args, (a, next) => {
    if (cmd === 'sum' && (a === '-s' || a === '--sysv')) sysv = true;
    else if (cmd === 'sum' && a === '-r') sysv = false;
    else if (cmd === 'cksum' && (a === '-a' || a.startsWith('--algorithm'))) {
      // Only the default CRC is here; the digests have their own commands (md5sum, …).
      const alg = a === '-a' || a === '--algorithm' ? next() : a.slice(a.indexOf('=') + 1);
      if (alg !== 'crc') return unsupported(cmd, `${a === '-a' ? '-a ' : ''}${alg ?? ''}`);
    } else return unsupported(cmd, a);
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  const names = walked.operands.length > 0 ? walked.operands : [undefined];
  let stdout = '';
  let stderr = '';
  for (const name of names) {
    const input = await readOperand(ctx, name ?? '-');
    if ('error' in input && input.readFailed) {
      // GNU cksum sums what it read (nothing) before the read error; sum reports the operand and prints no line.
      if (cmd === 'cksum') stdout += `${posixCrc('')} 0${name === undefined ? '' : ` ${name}`}\n`;
      stderr += `${cmd === 'sum' ? `sum: ${name ?? '-'}: ${input.error}\n` : ''}${cmd}: standard input: ${input.error}\n`;
      continue;
    }
    if ('error' in input) {
      stderr += `${cmd}: ${name}: ${input.error}\n`;
      continue;
    }
    const sums = cmd === 'cksum' ? `${posixCrc(input.bytes)} ${input.bytes.length}` : sumLine(input.bytes, sysv);
    stdout += `${sums}${name === undefined ? '' : ` ${name}`}\n`;
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

/** `cksum` and `sum` for just-bash's `customCommands`. */
export function cksumCommands(): CustomCommand[] {
  return [defineCommand('cksum', (args, ctx) => run('cksum', args, ctx)), defineCommand('sum', (args, ctx) => run('sum', args, ctx))];
}
