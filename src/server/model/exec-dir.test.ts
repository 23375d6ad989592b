import { describe, it, expect } from 'vitest';
import { checkExecDir } from './exec-dir.ts';
import { ModelError } from '../core/errors.ts';

describe('checkExecDir', () => {
  it('accepts a normal dir and one whose last component has 255 bytes', () => {
    expect(() => checkExecDir('/home/sprite')).not.toThrow();
    expect(() => checkExecDir(`/tmp/${'x'.repeat(255)}`)).not.toThrow();
  });

  it('refuses a component over 255 bytes as invalid_request "file name too long"', () => {
    const dir = `/tmp/${'x'.repeat(256)}`;
    const err = (() => {
      try {
        checkExecDir(dir);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ kind: 'invalid_request', message: `chdir ${dir}: file name too long` });
  });

  it('refuses a NUL byte or a newline as "invalid argument"', () => {
    for (const dir of ['/tmp/a\0b', '/tmp/a\nb']) expect(() => checkExecDir(dir)).toThrow(`chdir ${dir}: invalid argument`);
  });
});
