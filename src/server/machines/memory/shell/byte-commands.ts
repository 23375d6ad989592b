/**
 * Byte-exact `printf` and `echo` for the `shell` engine. just-bash's own versions turn an escape such as `\377`
 * into the character U+00FF of a text result, which then leaves as the two UTF-8 bytes `c3 bf`; bash writes the
 * one byte `ff`. These wrappers hand just-bash's command its words as UTF-8 byte strings (one char per byte, with
 * `\u`/`\U` escapes already turned into the `\NNN` escapes of their UTF-8 bytes), so every char of the result is one
 * byte, and return it as `bytes` output. They own only that translation; formatting stays just-bash's.
 * @see node_modules/just-bash/dist/encoding.d.ts
 */
import { bytesOutput, defineCommand, unsafeBytesFromLatin1, type CustomCommand, type ExecResult } from 'just-bash';

/** A string's UTF-8 bytes as a byte string (one char per byte). */
const utf8Bytes = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

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

/** `printf` is a bash builtin: its messages are the shell's (`bash: printf: x: invalid number`), not a program's. */
function asBuiltin(result: ExecResult): ExecResult {
  return result.stderr ? { ...result, stderr: result.stderr.replace(/^printf: /gm, 'bash: printf: ') } : result;
}

/** True for an `echo` option word (`-e`, `-n`, `-E`, `-ne`, …). */
const isEchoFlag = (w: string): boolean => /^-[neE]+$/.test(w);

/**
 * `printf` and `echo` whose output is the bytes bash writes: `printf '\377'` → `ff`, `printf 'é'` → `c3 a9`,
 * `echo -e '\xff'` → `ff 0a`. `printf -v` (assigning a variable) is left to just-bash as is.
 * @deviation Field widths count bytes, as bash does in the C locale.
 */
export function byteExactCommands(): CustomCommand[] {
  return [
    defineCommand('printf', async (args, ctx) => {
      if (args[0] === '-v' || args.length === 0) return asBuiltin(await ctx.origCommand!(args));
      const [format, ...rest] = args;
      const translated = [utf8Bytes(escapesToOctal(format!, '\\')), ...rest.map(utf8Bytes)];
      return asBuiltin(await asBytes(ctx.origCommand, args, translated));
    }),
    defineCommand('echo', async (args, ctx) => {
      let i = 0;
      while (i < args.length && isEchoFlag(args[i]!)) i++;
      const escapes = args.slice(0, i).some((w) => w.includes('e'));
      const translated = args.map((a, j) => (j < i ? a : utf8Bytes(escapes ? escapesToOctal(a, '\\0') : a)));
      return asBytes(ctx.origCommand, args, translated);
    }),
  ];
}
