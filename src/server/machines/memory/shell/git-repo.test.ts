import { describe, expect, it } from 'vitest';
import { quotePath } from './git-repo.ts';

// git's quote_c_style: control bytes, `"`, `\` and DEL always quoted; bytes over 0x7f only under core.quotePath.
describe('quotePath', () => {
  it('leaves plain names, quotes specials with C and octal escapes', () => {
    expect(quotePath('a b.txt')).toBe('a b.txt');
    expect(quotePath('a b', true)).toBe('"a b"');
    expect(quotePath('q"t\\\t')).toBe('"q\\"t\\\\\\t"');
    expect(quotePath('é')).toBe('"\\303\\251"');
    expect(quotePath('x\x7f')).toBe('"x\\177"');
  });
  it('keeps non-ASCII bytes when core.quotePath is false, still quoting the rest', () => {
    expect(quotePath('é', false, false)).toBe('é');
    expect(quotePath('é"', false, false)).toBe('"é\\""');
    expect(quotePath('é\x7f', false, false)).toBe('"é\\177"');
  });
});
