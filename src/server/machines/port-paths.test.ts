import { codeOf } from '../../../test/support/model.ts';
import { describe, expect, it } from 'vitest';
import { checkPath, resolveClientPath, VfsError } from './port.ts';

/** `/a/a/…` with `n` components: 2n bytes. */
const deep = (n: number) => '/a'.repeat(n);

describe('checkPath', () => {
  it('accepts paths up to 4095 bytes and refuses 4096 or more with ENAMETOOLONG (PATH_MAX counts the NUL)', () => {
    expect(codeOf(() => checkPath(deep(2047) + '/'))).toBeUndefined(); // 4095 bytes
    expect(codeOf(() => checkPath(deep(2048)))).toBe('ENAMETOOLONG'); // 4096 bytes
    expect(codeOf(() => checkPath(deep(5000)))).toBe('ENAMETOOLONG');
  });

  it('counts UTF-8 bytes, not characters', () => {
    const euro = '€'; // 3 bytes
    expect(codeOf(() => checkPath('/' + `${euro.repeat(80)}/`.repeat(17)))).toBe('ENAMETOOLONG'); // 1378 chars, 4098 bytes
    expect(codeOf(() => checkPath(`/${euro.repeat(85)}`))).toBeUndefined(); // a 255-byte name
    expect(codeOf(() => checkPath(`/${euro.repeat(86)}`))).toBe('ENAMETOOLONG'); // 258 bytes
  });

  it('refuses a component over 255 bytes (NAME_MAX), wherever it is', () => {
    expect(codeOf(() => checkPath(`/home/${'x'.repeat(255)}/f`))).toBeUndefined();
    expect(codeOf(() => checkPath(`/home/${'x'.repeat(256)}/f`))).toBe('ENAMETOOLONG');
    expect(codeOf(() => checkPath(`relative/${'x'.repeat(256)}`))).toBe('ENAMETOOLONG');
    expect(codeOf(() => checkPath('x'.repeat(256)))).toBe('ENAMETOOLONG');
  });

  it('refuses NUL, newline and carriage return with EINVAL', () => {
    for (const bad of ['/tmp/a\0b', '/tmp/a\nb', '/tmp/a\rb', '\n']) expect(codeOf(() => checkPath(bad))).toBe('EINVAL');
    expect(codeOf(() => checkPath('/tmp/ok name\t.txt'))).toBeUndefined();
  });

  it('never echoes more than PATH_MAX characters of the offending path', () => {
    try {
      checkPath(deep(100_000));
      expect.unreachable();
    } catch (e) {
      expect((e as VfsError).path).toHaveLength(4096);
      expect((e as VfsError).message.startsWith('ENAMETOOLONG: file name too long')).toBe(true);
    }
  });

  it('honours injected limits', () => {
    expect(codeOf(() => checkPath('/abcd', 'open', { pathMaxBytes: 5, nameMaxBytes: 255 }))).toBe('ENAMETOOLONG');
    expect(codeOf(() => checkPath('/abc', 'open', { pathMaxBytes: 5, nameMaxBytes: 255 }))).toBeUndefined();
    expect(codeOf(() => checkPath('/abc', 'open', { pathMaxBytes: 4096, nameMaxBytes: 2 }))).toBe('ENAMETOOLONG');
  });
});

describe('resolveClientPath', () => {
  it('resolves against workingDir and checks the path, the workingDir and the joined result', () => {
    expect(resolveClientPath('x//y/', '/home/sprite')).toBe('/home/sprite/x/y');
    expect(resolveClientPath('/abs', undefined)).toBe('/abs');
    const longDir = deep(1500); // 3000 bytes
    expect(codeOf(() => resolveClientPath(deep(600).slice(1), longDir))).toBe('ENAMETOOLONG'); // each fine, joined 4200 bytes
    expect(codeOf(() => resolveClientPath('f', deep(3000)))).toBe('ENAMETOOLONG');
    expect(codeOf(() => resolveClientPath('f', '/tmp\n'))).toBe('EINVAL');
    expect(codeOf(() => resolveClientPath(`../${'z'.repeat(300)}/..`, '/'))).toBe('ENAMETOOLONG'); // raw path checked before normalising
  });
});
