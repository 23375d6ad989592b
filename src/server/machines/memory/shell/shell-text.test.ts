import { describe, expect, it } from 'vitest';
import { hasEscapedBytes, shellByteLength, shellText, shellTextBytes, shellTextLatin1 } from './shell-text.ts';

describe('shell text: a byte that is not UTF-8 is kept as U+DC00 + byte', () => {
  it('decodes valid sequences as characters and any other byte as its escape', () => {
    expect(shellText(Buffer.from('caf\xc3\xa9', 'latin1'))).toBe('café');
    expect(shellText(Buffer.from('a\xffb\xe9', 'latin1'))).toBe('a\udcffb\udce9');
    // Half a character, an overlong form, an encoded surrogate: each byte on its own.
    expect(shellText(Buffer.from('\xe2\x82', 'latin1'))).toBe('\udce2\udc82');
    expect(shellText(Buffer.from('\xc0\xaf', 'latin1'))).toBe('\udcc0\udcaf');
    expect(shellText(Buffer.from('\xed\xa0\x80', 'latin1'))).toBe('\udced\udca0\udc80');
    expect(shellText(Buffer.from('\xf0\x9f\x98\x80', 'latin1'))).toBe('😀');
  });

  it('encodes it back to the byte, leaves a surrogate pair alone, and counts one byte for it', () => {
    expect(shellTextBytes('a\udcffb').toString('hex')).toBe('61ff62');
    expect(shellTextLatin1('é\udce9')).toBe('\xc3\xa9\xe9');
    // U+1F080 is the pair D83C DC80: its low half is no escaped byte.
    expect(shellTextBytes('\u{1F080}').toString('hex')).toBe('f09f8280');
    expect(hasEscapedBytes('\u{1F080}')).toBe(false);
    expect(shellByteLength('a\udcffé')).toBe(4);
    for (const bytes of ['\xff\xfe', 'x\xe9y', 'ok', '\xe2\x82\xac\x80']) expect(shellTextBytes(shellText(Buffer.from(bytes, 'latin1'))).toString('latin1')).toBe(bytes);
  });
});
