/**
 * Byte-exact `printf` and `echo` for the `shell` engine. just-bash's own versions turn an escape such as `\377`
 * into the character U+00FF of a text result, which then leaves as the two UTF-8 bytes `c3 bf`; bash writes the
 * one byte `ff`. `printf` is formatted here (printf-format.ts) on the words' UTF-8 bytes; `echo` hands just-bash's
 * command its words as UTF-8 byte strings (one char per byte, with `\u`/`\U` escapes already turned into the `\NNN`
 * escapes of their UTF-8 bytes), so every char of the result is one byte, and returns it as `bytes` output.
 * @see node_modules/just-bash/dist/encoding.d.ts
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CommandContext, type CustomCommand, type ExecResult } from 'just-bash';
import { formatDate } from './date-format.ts';
import { orderOf, type OrderedResult } from './output-order.ts';
import { runPrintf } from './printf-format.ts';
import { localeQuote } from './gnu-quote.ts';
import { quoteName } from './ls-quote.ts';
import { shellText, shellTextLatin1 } from './shell-text.ts';

/** A string's UTF-8 bytes as a byte string (one char per byte). */
/** An argument's bytes as a latin1 string: its UTF-8, a byte that is not UTF-8 as itself (shell-text.ts). */
const utf8Bytes = (s: string): string => shellTextLatin1(s);

/**
 * Replaces each `\xHH` (1–2 hex digits), `\uXXXX` (1–4) and `\UXXXXXXXX` (1–8) escape of `s` with octal escapes
 * (`prefix` then three digits: `\` for printf formats, `\0` for `echo -e`) of its bytes: the byte itself for `\x`,
 * the code point's UTF-8 bytes for `\u`/`\U` (`\u00e9` → `\303\251`). `\\` pairs are kept, so `\\x41` stays literal.
 * just-bash would decode a run of `\x` escapes as UTF-8 into one character, which can no longer be told from a byte.
 */
export function escapesToOctal(s: string, prefix: '\\' | '\\0'): string {
  const octal = (bytes: Iterable<number>) => [...bytes].map((b) => prefix + b.toString(8).padStart(3, '0')).join('');
  return s.replace(/\\\\|\\x([0-9a-fA-F]{1,2})|\\u([0-9a-fA-F]{1,4})|\\U([0-9a-fA-F]{1,8})/g, (all, x?: string, u?: string, U?: string) => {
    if (x !== undefined) return octal([parseInt(x, 16)]);
    const hex = u ?? U;
    if (hex === undefined) return all;
    const cp = parseInt(hex, 16);
    if (cp > 0x10ffff) return all;
    return octal(Buffer.from(String.fromCodePoint(cp), 'utf8'));
  });
}

/** True when every char of `s` is a byte (0–255). */
const isByteString = (s: string): boolean => !/[^\x00-\xff]/.test(s);

/** The result of `orig` on the translated words, as bytes when it holds only byte chars; else unchanged. */
async function asBytes(orig: ((args: string[]) => Promise<ExecResult>) | undefined, args: string[], translated: string[]): Promise<ExecResult> {
  if (!orig) return { stdout: '', stderr: 'spritzer: internal error: no bundled command to wrap\n', exitCode: 1 };
  const result = await orig(translated);
  if (!isByteString(result.stdout)) return orig(args);
  return { ...result, ...bytesOutput(unsafeBytesFromLatin1(result.stdout)) };
}

const USAGE = 'printf: usage: printf [-v var] format [arguments]\n';

/**
 * bash's `printf [-v var] format [arguments]`: options as bash's getopt reads them (`-v NAME`, `-vNAME`, `--`), then
 * {@link runPrintf} on the words' UTF-8 bytes. Messages are the shell's (`bash: printf: …`) and come before the
 * output of the format pass that caused them (bash flushes its output after each pass). With `-v` the output is
 * assigned through just-bash's own `printf -v NAME %s`, which checks the name.
 */
/**
 * GNU coreutils' `printf` program (what `/usr/bin/printf`, `env printf`, `xargs printf` run): no options but a
 * first `--` (so `-v` is a format), `missing operand` without a format, and GNU's messages (printf-format.ts `gnu`).
 * @see GNU coreutils printf.c main
 */
function printfProgram(args: string[], ctx: CommandContext): ExecResult {
  const operands = args[0] === '--' ? args.slice(1) : args;
  if (operands.length === 0) return { stdout: '', stderr: "printf: missing operand\nTry 'printf --help' for more information.\n", exitCode: 1 };
  const tz = ctx.env.get('TZ');
  const utf8 = (s: string) => Buffer.from(s, 'latin1').toString('utf8');
  const run = runPrintf(utf8Bytes(operands[0]!), operands.slice(1).map(utf8Bytes), {
    strftime: (format, seconds) => formatDate(utf8(format), { ms: seconds * 1000, ns: 0, tz }),
    now: () => 0,
    started: () => 0,
    gnu: { quote: (a) => utf8Bytes(localeQuote(ctx.env, utf8(a))), shellEscape: (a) => utf8Bytes(quoteName(utf8(a), 'shell-escape')) },
  });
  const marks: Array<[number, number]> = [];
  let stderr = '';
  for (const m of run.messages) {
    const text = utf8(m.text);
    marks.push([m.at, text.length]);
    stderr += text;
  }
  const result: OrderedResult = { ...bytesOutput(unsafeBytesFromLatin1(run.stdout)), stderr, exitCode: run.status, outputOrder: orderOf(marks, 'before-errors') };
  return result;
}

async function printfBuiltin(args: string[], ctx: CommandContext, now: () => number, started: number): Promise<ExecResult> {
  // Run as a program, not as bash's builtin (patches/just-bash/tell-builtin-context.mjs): GNU's printf.
  if ((ctx as { builtin?: boolean }).builtin === false) return printfProgram(args, ctx);
  let i = 0;
  let target: string | undefined;
  while (i < args.length && args[i]!.startsWith('-') && args[i] !== '-') {
    const a = args[i++]!;
    if (a === '--') break;
    if (a.startsWith('-v')) {
      target = a.length > 2 ? a.slice(2) : args[i++];
      if (target === undefined) return { stdout: '', stderr: `bash: printf: -v: option requires an argument\n${USAGE}`, exitCode: 2 };
      continue;
    }
    return { stdout: '', stderr: `bash: printf: ${a.slice(0, 2)}: invalid option\n${USAGE}`, exitCode: 2 };
  }
  if (i >= args.length) return { stdout: '', stderr: USAGE, exitCode: 2 };
  const tz = ctx.env.get('TZ');
  const run = runPrintf(utf8Bytes(args[i]!), args.slice(i + 1).map(utf8Bytes), {
    strftime: (format, seconds) => formatDate(Buffer.from(format, 'latin1').toString('utf8'), { ms: seconds * 1000, ns: 0, tz }),
    now: () => Math.floor(now() / 1000),
    started: () => Math.floor(started / 1000),
  });
  const marks: Array<[number, number]> = [];
  let stderr = '';
  for (const m of run.messages) {
    const text = `bash: ${Buffer.from(m.text, 'latin1').toString('utf8')}`;
    marks.push([m.at, text.length]);
    stderr += text;
  }
  if (target !== undefined) {
    const assigned = await ctx.origCommand!(['-v', target, '%s', shellText(Buffer.from(run.stdout, 'latin1'))]);
    return { stdout: '', stderr: stderr + assigned.stderr.replace(/^printf: /gm, 'bash: printf: '), exitCode: assigned.exitCode || run.status };
  }
  const result: OrderedResult = { ...bytesOutput(unsafeBytesFromLatin1(run.stdout)), stderr, exitCode: run.status, outputOrder: orderOf(marks, 'before-errors') };
  return result;
}

/** True for an `echo` option word (`-e`, `-n`, `-E`, `-ne`, …). */
const isEchoFlag = (w: string): boolean => /^-[neE]+$/.test(w);

/**
 * `printf` and `echo` whose output is the bytes bash writes: `printf '\377'` → `ff`, `printf 'é'` → `c3 a9`,
 * `echo -e '\xff'` → `ff 0a`. `now` is the engine's clock (epoch ms), for `printf '%(…)T'`.
 * @deviation Field widths count bytes, as bash does in the C locale.
 */
export function byteExactCommands(now: () => number): CustomCommand[] {
  const started = now();
  return [
    defineCommand('printf', (args, ctx) => printfBuiltin(args, ctx, now, started)),
    defineCommand('echo', async (args, ctx) => {
      let i = 0;
      while (i < args.length && isEchoFlag(args[i]!)) i++;
      // Option letters combine in any order (`-neE`); of -e and -E the last one given wins.
      const letters = args.slice(0, i).join('');
      const escapes = letters.lastIndexOf('e') > letters.lastIndexOf('E');
      const mode = /[eE]/.test(letters) ? [escapes ? '-e' : '-E'] : [];
      const flags = [...(letters.includes('n') ? ['-n'] : []), ...mode];
      const words = args.slice(i);
      return asBytes(ctx.origCommand, [...flags, ...words], [...flags, ...words.map((a) => utf8Bytes(escapes ? escapesToOctal(a, '\\0') : a))]);
    }),
  ];
}
