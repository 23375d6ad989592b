import { describe, expect, it } from 'vitest';
import { normalizePath } from './paths.ts';

describe('normalizePath', () => {
  it('drops empty and `.` components and takes `..` lexically, never above /', () => {
    expect(normalizePath('/a//b/./c/')).toBe('/a/b/c');
    expect(normalizePath('/a/../../b')).toBe('/b');
    expect(normalizePath('/..')).toBe('/');
    expect(normalizePath('/')).toBe('/');
  });

  it('resolves a relative path against the working directory, itself taken as absolute', () => {
    expect(normalizePath('x//y/', '/home/sprite')).toBe('/home/sprite/x/y');
    expect(normalizePath('../etc', '/home/sprite')).toBe('/home/etc');
    expect(normalizePath('x', 'tmp')).toBe('/tmp/x');
    expect(normalizePath('')).toBe('/');
  });
});
