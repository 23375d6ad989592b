/**
 * Text that carries the bytes which are no part of a UTF-8 character: each such byte 0x80–0xFF is the private-use
 * character U+F780–U+F7FF (U+F700 + the byte), so a tool that works on JavaScript strings can match around it, keep
 * it, and write it back as the byte it was. GNU tools in the sprite's C.UTF-8 locale pass such bytes through
 * unchanged and match none of them with `.` or a negated bracket expression (grep and sed manuals, "Character
 * Encoding"/"Locale Considerations"). The same scheme runs inside the patched sed (patches/just-bash/
 * sed-utf8-invalid-bytes.mjs).
 */

/** A carried byte. */
export const CARRIED = /[\uf780-\uf7ff]/;

/** The length of the UTF-8 character starting at `b[i]` (1–4), or 0 when the bytes there are not one. */
function charLength(b: Buffer, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n === 0 || i + n > b.length) return 0;
  for (let k = 1; k < n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  const cp = b.toString('utf8', i, i + n).codePointAt(0)!;
  return (n === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n === 4 && (cp < 0x10000 || cp > 0x10ffff)) ? 0 : n;
}

/** Bytes (a latin1 string) as text, each byte that is no part of a UTF-8 character carried. */
export function decodeCarrying(bytes: string): string {
  const b = Buffer.from(bytes, 'latin1');
  let out = '';
  for (let i = 0; i < b.length; ) {
    const n = charLength(b, i);
    if (n === 0) out += String.fromCharCode(0xf700 + b[i]!);
    else out += b.toString('utf8', i, i + n);
    i += n || 1;
  }
  return out;
}

/** Text as bytes (a latin1 string): UTF-8, each carried byte written as itself. */
export function encodeCarried(text: string): string {
  if (!CARRIED.test(text)) return Buffer.from(text, 'utf8').toString('latin1');
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out += c >= 0xf780 && c <= 0xf7ff ? String.fromCharCode(c - 0xf700) : Buffer.from(ch, 'utf8').toString('latin1');
  }
  return out;
}
