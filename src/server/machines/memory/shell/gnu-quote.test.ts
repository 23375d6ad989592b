import { describe, expect, it } from 'vitest';
import { argmatch, argmatchMessage, localeQuote } from './gnu-quote.ts';

const TIME = [['atime', 'access', 'use'], ['mtime', 'modify']];

describe('gnulib quoting and argmatch', () => {
  it('quotes with ‘’ in a UTF-8 locale (LC_ALL before LC_MESSAGES before LANG) and with \'\' otherwise', () => {
    expect(localeQuote(new Map([['LANG', 'C.UTF-8']]), 'x')).toBe('‘x’');
    expect(localeQuote(new Map([['LC_ALL', 'C'], ['LANG', 'en_US.utf8']]), 'x')).toBe("'x'");
    expect(localeQuote(new Map([['LC_MESSAGES', 'en_US.UTF-8']]), 'x')).toBe('‘x’');
    expect(localeQuote(new Map(), 'x')).toBe("'x'");
  });

  it('reads an exact value, or a prefix whose values all mean the same; a prefix of two meanings is ambiguous', () => {
    expect(argmatch('use', TIME)).toBe(0);
    expect(argmatch('modify', TIME)).toBe(1);
    expect(argmatch('a', TIME)).toBe(0);
    expect(argmatch('mod', TIME)).toBe(1);
    expect(argmatch('bogus', TIME)).toBe('invalid');
    expect(argmatch('', TIME)).toBe('invalid');
    expect(argmatch('a', [['atime'], ['access']])).toBe('ambiguous');
  });

  it('words an invalid or ambiguous argument with the valid ones, one meaning per line', () => {
    expect(argmatchMessage(new Map(), 'x', '--time', TIME)).toBe("invalid argument 'x' for '--time'\nValid arguments are:\n  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'");
    expect(argmatchMessage(new Map([['LANG', 'C.UTF-8']]), 'a', '--f', [['ab'], ['ac']], true)).toBe('ambiguous argument ‘a’ for ‘--f’\nValid arguments are:\n  - ‘ab’\n  - ‘ac’');
  });
});
