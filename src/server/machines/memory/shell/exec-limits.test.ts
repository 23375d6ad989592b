import { describe, expect, it } from 'vitest';
import { argListTooLong, execTooLong } from './exec-limits.ts';

// Linux's execve limits (MAX_ARG_STRLEN 128 KiB per string, 2 MiB of strings and pointers under an 8 MiB stack).

describe('argListTooLong', () => {
  it('refuses one string of 128 KiB with its NUL, or all strings and pointers past 2 MiB', () => {
    expect(argListTooLong('/bin/true', ['true', 'a'.repeat(131071)], {})).toBe(false);
    expect(argListTooLong('/bin/true', ['true', 'a'.repeat(131072)], {})).toBe(true);
    expect(argListTooLong('/bin/true', ['true'], { BIG: 'b'.repeat(131068) })).toBe(true);
    expect(argListTooLong('/bin/true', ['true', ...Array(20).fill('c'.repeat(100000))], {})).toBe(false);
    expect(argListTooLong('/bin/true', ['true', ...Array(21).fill('c'.repeat(100000))], {})).toBe(true);
  });
  it('counts a nested script as written, not with the engine\'s sink redirections', () => {
    const script = 'echo hi >| /dev/.spritzer/stdout 2>| /dev/.spritzer/stderr; '.repeat(14000);
    expect(argListTooLong('/usr/bin/bash', ['bash', '-c', script], {})).toBe(false);
  });
});

describe('execTooLong', () => {
  it('names the program as bash reports it: as written with a slash, else the path found; the streaming wrapper as its program', () => {
    const big = 'x'.repeat(200000);
    expect(execTooLong('cat', '/usr/bin/cat', [big], {})).toBe('/usr/bin/cat');
    expect(execTooLong('./run.sh', '/w/run.sh', [big], {})).toBe('./run.sh');
    expect(execTooLong('__spritzer_run', '/usr/bin/__spritzer_run', ['bash', '-c', ':', big], {})).toBe('/usr/bin/bash');
    expect(execTooLong('cat', '/usr/bin/cat', ['a'], {})).toBeNull();
  });
});
