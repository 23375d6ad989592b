/**
 * How many terminal columns a character takes, as glibc's wcwidth(3) in a UTF-8 locale gives it: none for a
 * combining mark (Unicode's Mn and Me) or a format character (Cf, but the soft hyphen), none for a control
 * character, two for an East Asian wide or fullwidth one (CJK, Hangul, fullwidth forms, most emoji), one otherwise.
 * A pure function, for the tools that measure text (`wc -L`, `column`).
 */

const ZERO = /[\p{Mn}\p{Me}\p{Cf}]/u;

/** Columns of the character with code point `c` (0 for a control character, where wcwidth says -1). */
export function charWidth(c: number): number {
  if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c > 0x10ffff) return 0;
  if (c !== 0xad && ZERO.test(String.fromCodePoint(c))) return 0;
  const wide =
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f900 && c <= 0x1f9ff) ||
    (c >= 0x20000 && c <= 0x3fffd);
  return wide ? 2 : 1;
}

/** Columns of the text `s` (each character's {@link charWidth}, summed). */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}
