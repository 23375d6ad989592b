/**
 * `hexdump` (and `hd`) as util-linux prints its standard formats: the default 16-bit words, `-C` canonical hex
 * with the text column, `-c` characters, `-x` hex words, `-b` octal bytes, `-d` decimal words; `-n` length, `-s`
 * skip, `*` for repeated lines unless `-v`; the last line gives the end address.
 * @see https://man7.org/linux/man-pages/man1/hexdump.1.html
 */
import { defineCommand, type CustomCommand, type ExecResult } from 'just-bash';
import { unsupported } from './gnu-commands.ts';
import { readOperand, walkArgs, type InputCtx } from './text-input.ts';

type Format = 'default' | 'C' | 'c' | 'x' | 'b' | 'd' | 'o';

const ESC: Record<number, string> = { 0: '\\0', 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
const word = (s: string, k: number) => s.charCodeAt(k) | ((k + 1 < s.length ? s.charCodeAt(k + 1) : 0) << 8);

/** One 16-byte line of `f` at address `at` (the data may be shorter: it is padded as util-linux pads it). */
function line(f: Format, at: number, d: string): string {
  if (f === 'C') {
    let hex = '';
    for (let k = 0; k < 16; k++) hex += (k === 8 ? ' ' : '') + (k < d.length ? ` ${d.charCodeAt(k).toString(16).padStart(2, '0')}` : '   ');
    return `${at.toString(16).padStart(8, '0')} ${hex}  |${[...d].map((c) => (c >= ' ' && c <= '~' ? c : '.')).join('')}|\n`;
  }
  const addr = at.toString(16).padStart(7, '0');
  const cells: string[] = [];
  if (f === 'c' || f === 'b') {
    for (let k = 0; k < 16; k++) {
      if (k >= d.length) cells.push('    ');
      else {
        const b = d.charCodeAt(k);
        cells.push(f === 'b' ? ` ${b.toString(8).padStart(3, '0')}` : (ESC[b] ?? (b >= 32 && b < 127 ? String.fromCharCode(b) : b.toString(8).padStart(3, '0'))).padStart(4));
      }
    }
  } else {
    for (let k = 0; k < 16; k += 2) {
      const w = word(d, k);
      if (k >= d.length) cells.push(f === 'default' ? '     ' : '        ');
      else if (f === 'default') cells.push(` ${w.toString(16).padStart(4, '0')}`);
      else if (f === 'x') cells.push(`    ${w.toString(16).padStart(4, '0')}`);
      else if (f === 'o') cells.push(`  ${w.toString(8).padStart(6, '0')}`);
      else cells.push(`   ${String(w).padStart(5, '0')}`);
    }
  }
  return `${addr}${cells.join('')}\n`;
}

async function hexdump(cmd: string, args: string[], ctx: InputCtx): Promise<ExecResult> {
  let format: Format = cmd === 'hd' ? 'C' : 'default';
  let skip = 0;
  let length = Infinity;
  let verbose = false;
  const walked = walkArgs(args, (a, next) => {
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === 'n' || c === 's') {
        const v = j + 1 < a.length ? a.slice(j + 1) : (next() ?? '');
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0) return { stdout: '', stderr: `${cmd}: invalid ${c === 'n' ? 'length' : 'offset'} argument: '${v}'\n`, exitCode: 1 };
        if (c === 'n') length = n;
        else skip = n;
        return undefined;
      }
      if ('Ccxbdo'.includes(c)) format = c as Format;
      else if (c === 'v') verbose = true;
      else return unsupported(cmd, `-${c}`);
    }
    return undefined;
  });
  if ('failed' in walked) return walked.failed;
  const names = walked.operands;
  let data = '';
  let stderr = '';
  let read = 0;
  for (const name of names.length > 0 ? names : ['-']) {
    const input = await readOperand(ctx, name);
    if ('error' in input) stderr += `${cmd}: ${name}: ${input.error}\n`;
    else {
      data += input.bytes;
      read++;
    }
  }
  if (read === 0) return { stdout: '', stderr: `${stderr}${cmd}: all input file arguments failed\n`, exitCode: 1 };
  data = data.slice(skip, skip + length);
  let out = '';
  let previous: string | undefined;
  let starred = false;
  for (let at = 0; at < data.length; at += 16) {
    const d = data.slice(at, at + 16);
    if (!verbose && d === previous && d.length === 16) {
      if (!starred) out += '*\n';
      starred = true;
      continue;
    }
    previous = d;
    starred = false;
    out += line(format, skip + at, d);
  }
  if (data.length > 0) out += `${(skip + data.length).toString(16).padStart(format === 'C' ? 8 : 7, '0')}\n`;
  return { stdout: out, stderr, exitCode: stderr ? 1 : 0 };
}

/** `hexdump` and `hd` for just-bash's `customCommands`. */
export function hexdumpCommands(): CustomCommand[] {
  return ['hexdump', 'hd'].map((name) => defineCommand(name, (args, ctx) => hexdump(name, args, ctx)));
}
