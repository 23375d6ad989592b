import { describe, expect, it } from 'vitest';
import { checkSpriteFields } from './sprite-fields.ts';
import { ModelError } from '../core/errors.ts';
import { kindOf } from '../../../test/support/model.ts';

describe('checkSpriteFields', () => {
  it('accepts fields within the default limits and absent fields', () => {
    expect(kindOf(() => checkSpriteFields({}))).toBeUndefined();
    expect(kindOf(() => checkSpriteFields({ labels: Array(64).fill('l'.repeat(128)), config: { region: 'ord' }, environment: { A: 'b' } }))).toBeUndefined();
  });

  it('refuses too many labels, a long label, a big config or environment with invalid_request naming the limit', () => {
    const cases: Array<[object, RegExp]> = [
      [{ labels: Array(65).fill('x') }, /too many labels: 65 \(at most 64\)/],
      [{ labels: ['ok', 'y'.repeat(129)] }, /label 1 is longer than 128 characters/],
      [{ config: { junk: 'z'.repeat(4096) } }, /config is larger than 4096 bytes/],
      [{ environment: { BIG: 'e'.repeat(65536) } }, /environment is larger than 65536 bytes/],
    ];
    for (const [input, message] of cases) {
      try {
        checkSpriteFields(input);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ModelError);
        expect((e as ModelError).kind).toBe('invalid_request');
        expect((e as ModelError).message).toMatch(message);
        expect((e as ModelError).details).toEqual({ errors: [(e as ModelError).message] });
      }
    }
  });

  it('counts UTF-8 bytes and honours injected limits', () => {
    const limits = { labelsMax: 1, labelMaxLength: 3, configMaxBytes: 20, environmentMaxBytes: 20 };
    expect(kindOf(() => checkSpriteFields({ labels: ['a', 'b'] }, limits))).toBe('invalid_request');
    expect(kindOf(() => checkSpriteFields({ config: { r: '€€€€€' } }, limits))).toBe('invalid_request'); // 9 chars, 23 bytes
    expect(kindOf(() => checkSpriteFields({ config: { r: 'abcde' } }, limits))).toBeUndefined();
  });
});
