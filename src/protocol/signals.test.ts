import { describe, it, expect } from 'vitest';
import { normalizeSignalName, signalNumber, SIGNAL_NUMBERS } from './signals.ts';

describe('normalizeSignalName', () => {
  it.each(['SIGTERM', 'TERM', 'term', 'sigterm', 'SigTerm', ' TERM '])('reads %j as TERM', (s) => {
    expect(normalizeSignalName(s)).toBe('TERM');
  });
  it('accepts a table number', () => {
    expect(normalizeSignalName('9')).toBe('KILL');
    expect(normalizeSignalName(' 15 ')).toBe('TERM');
    expect(normalizeSignalName('28')).toBe('WINCH');
  });
  it('accepts the number of every signal in the table', () => {
    for (const [name, n] of Object.entries(SIGNAL_NUMBERS)) expect(normalizeSignalName(String(n))).toBe(name);
  });
  it.each(['', 'SIG', 'BOGUS', 'SIGBOGUS', '99', 'TERM15', 'constructor', 'toString', '0x9', '1e1', '9.0', '9x', '-9', '4'])('rejects %j', (s) => {
    expect(normalizeSignalName(s)).toBeNull();
  });
});

describe('signalNumber', () => {
  it.each([
    ['HUP', 1], ['INT', 2], ['QUIT', 3], ['KILL', 9], ['USR1', 10], ['SEGV', 11], ['USR2', 12], ['PIPE', 13],
    ['ALRM', 14], ['TERM', 15], ['CHLD', 17], ['CONT', 18], ['STOP', 19], ['TSTP', 20], ['WINCH', 28],
  ] as const)('%s is %i', (name, n) => {
    expect(signalNumber(name)).toBe(n);
    expect(signalNumber(`sig${name.toLowerCase()}`)).toBe(n);
  });
  it('is null for an unknown signal', () => {
    expect(signalNumber('SIGNOPE')).toBeNull();
  });
});
