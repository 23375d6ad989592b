import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { wholeNumber, wholeNumberMessage } from './cli-numbers.ts';

describe('wholeNumber', () => {
  it('accepts safe integers within the range, bounds included', () => {
    const parse = wholeNumber({ min: 0, max: 64 });
    expect([parse('0'), parse('64'), parse(' 7 '), parse('1e1')]).toEqual([0, 64, 7, 10]);
    expect(wholeNumber({ min: 1024, unit: 'bytes' })('1048576')).toBe(1048576);
  });

  it.each(['', ' ', 'x', '1.5', '-1', '65', 'NaN', 'Infinity', '9007199254740993'])('refuses %j with the rule’s message', (text) => {
    const parse = wholeNumber({ min: 0, max: 64 });
    expect(() => parse(text)).toThrow(InvalidArgumentError);
    expect(() => parse(text)).toThrow('must be a whole number from 0 to 64');
  });

  it('words the unit, the lower bound and the note', () => {
    expect(wholeNumberMessage({ min: 1024, unit: 'bytes' })).toBe('must be a whole number of bytes, at least 1024');
    expect(wholeNumberMessage({ min: 0, unit: 'milliseconds', note: '0: no limit' })).toBe('must be a whole number of milliseconds (0: no limit)');
    expect(wholeNumberMessage({ min: 1 })).toBe('must be a whole number, at least 1');
  });

  it('through commander, the refusal names the flag and the value given', () => {
    const program = new Command('t')
      .exitOverride()
      .configureOutput({ writeErr: () => {} })
      .addOption(new Option('--max-header-size <bytes>').argParser(wholeNumber({ min: 1024, unit: 'bytes' })));
    let error: CommanderError | undefined;
    try {
      program.parse(['--max-header-size', '12'], { from: 'user' });
    } catch (e) {
      error = e as CommanderError;
    }
    expect(error?.message).toBe("error: option '--max-header-size <bytes>' argument '12' is invalid. must be a whole number of bytes, at least 1024");
    expect(program.parse(['--max-header-size', '2048'], { from: 'user' }).opts()).toEqual({ maxHeaderSize: 2048 });
  });
});
