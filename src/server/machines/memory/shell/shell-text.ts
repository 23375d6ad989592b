/**
 * The shell's strings and the bytes they stand for. bash's strings are bytes; the shell engine's are JavaScript
 * strings decoded from UTF-8. A byte that is no part of a valid UTF-8 sequence (`$'\xff'`, a Latin-1 `é` read from a
 * file, half of a character cut by `head -c`) is kept as the lone surrogate U+DC00 + the byte (U+DC80–U+DCFF; Python's
 * "surrogateescape"), so that it stays one character through the shell's string operations, as bash counts a byte
 * that is not a character in a UTF-8 locale, and is written back as that byte, never as U+FFFD nor UTF-8 encoded.
 * The interpreter keeps the same convention (patches/just-bash/when-bytes-not-utf8.mjs).
 * @see bash(1) "QUOTING" ($'…' with \xHH and \nnn), PEP 383 (surrogateescape)
 */

/** A lone surrogate that stands for a byte: U+DC80–U+DCFF not preceded by a high surrogate. */
const ESCAPED_BYTE = /(?<![\ud800-\udbff])[\udc80-\udcff]/;
const ESCAPED_BYTES = /(?<![\ud800-\udbff])[\udc80-\udcff]/g;

/** Whether `s` holds a byte that is not UTF-8 ({@link shellText}'s escape). */
export function hasEscapedBytes(s: string): boolean {
  return ESCAPED_BYTE.test(s);
}

/** The bytes shell text `s` stands for: UTF-8, each escaped byte as itself. */
export function shellTextBytes(s: string): Buffer {
  if (!ESCAPED_BYTE.test(s)) return Buffer.from(s, 'utf8');
  const parts: Buffer[] = [];
  let at = 0;
  for (const m of s.matchAll(ESCAPED_BYTES)) {
    parts.push(Buffer.from(s.slice(at, m.index), 'utf8'), Buffer.of(m[0].charCodeAt(0) - 0xdc00));
    at = m.index + 1;
  }
  parts.push(Buffer.from(s.slice(at), 'utf8'));
  return Buffer.concat(parts);
}

/** {@link shellTextBytes} as a latin1 byte string (each character one byte), the form just-bash's byte pipes carry. */
export function shellTextLatin1(s: string): string {
  return shellTextBytes(s).toString('latin1');
}

/** The length in bytes of shell text `s` (what `${#s}` counts in the C locale). */
export function shellByteLength(s: string): number {
  let escaped = 0;
  if (ESCAPED_BYTE.test(s)) for (const _ of s.matchAll(ESCAPED_BYTES)) escaped++;
  // An escaped byte is one byte, where Buffer.byteLength counts the surrogate as three (its replacement character).
  return Buffer.byteLength(s, 'utf8') - 2 * escaped;
}

/**
 * Shell text of `bytes`: each valid UTF-8 sequence is its character (as a strict decoder reads them: no overlong forms,
 * no surrogates, nothing above U+10FFFF), any other byte is escaped as U+DC00 + the byte.
 */
export function shellText(bytes: Uint8Array): string {
  const fast = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.every((b) => b < 0x80)) return fast.toString('latin1');
  let out = '';
  let n = 0;
  while (n < bytes.length) {
    const r = bytes[n]!;
    if (r < 0x80) {
      out += String.fromCharCode(r);
      n++;
      continue;
    }
    const len = r >= 0xc2 && r <= 0xdf ? 2 : r >= 0xe0 && r <= 0xef ? 3 : r >= 0xf0 && r <= 0xf4 ? 4 : 0;
    let ok = len > 0 && n + len <= bytes.length;
    for (let i = 1; ok && i < len; i++) ok = (bytes[n + i]! & 0xc0) === 0x80;
    if (ok && len === 3) ok = !((r === 0xe0 && bytes[n + 1]! < 0xa0) || (r === 0xed && bytes[n + 1]! >= 0xa0));
    if (ok && len === 4) ok = !((r === 0xf0 && bytes[n + 1]! < 0x90) || (r === 0xf4 && bytes[n + 1]! >= 0x90));
    if (!ok) {
      out += String.fromCharCode(0xdc00 + r);
      n++;
      continue;
    }
    out += Buffer.from(bytes.subarray(n, n + len)).toString('utf8');
    n += len;
  }
  return out;
}
