/** The canonical-mode line discipline of the interactive TTY shell: what a user typing into `bash` sees. */
import { describe, it, expect } from 'vitest';
import { LineDiscipline } from './line-discipline.ts';

/** Feeds `input` (latin1 bytes, in the given pieces) and returns what the terminal showed and what happened. */
function feed(...pieces: string[]) {
  const log: string[] = [];
  let screen = '';
  const ld = new LineDiscipline({
    echo: (b) => void (screen += Buffer.from(b).toString('latin1')),
    line: (b) => void log.push(`line:${Buffer.from(b).toString('utf8')}`),
    interrupt: () => void log.push('interrupt'),
    eof: () => void log.push('eof'),
  });
  for (const p of pieces) ld.feed(Buffer.from(p, 'latin1'));
  return { screen, log };
}

describe('LineDiscipline', () => {
  it('echoes typed bytes and submits a line on CR, LF or CR LF (once)', () => {
    expect(feed('ls\r', 'pwd\n', 'id\r\n', 'x')).toEqual({ screen: 'ls\r\npwd\r\nid\r\nx', log: ['line:ls', 'line:pwd', 'line:id'] });
  });

  it('CR and LF split over two chunks still count as one line end', () => {
    expect(feed('a\r', '\nb\r').log).toEqual(['line:a', 'line:b']);
  });

  it('Backspace and DEL erase one character, a whole UTF-8 character included; nothing to erase shows nothing', () => {
    const { screen, log } = feed('\x7f', 'ab\x08c', Buffer.from('é', 'utf8').toString('latin1'), '\x7f\r');
    expect(log).toEqual(['line:ac']);
    expect(screen).toBe('ab\b \bc' + Buffer.from('é', 'utf8').toString('latin1') + '\b \b\r\n');
  });

  it('^U erases the whole line', () => {
    expect(feed('abc\x15d\r').log).toEqual(['line:d']);
  });

  it('^C drops the typed line, echoes ^C and interrupts', () => {
    expect(feed('sleep\x03echo\r')).toEqual({ screen: 'sleep^C\r\necho\r\n', log: ['interrupt', 'line:echo'] });
  });

  it('^D is end of input on an empty line only', () => {
    expect(feed('ab\x04\r\x04').log).toEqual(['line:ab', 'eof']);
  });

  it('swallows escape sequences (arrow keys) and other control bytes', () => {
    expect(feed('a\x1b[A\x1bOB\x1b[1;5Cb\x07\tc\r')).toEqual({ screen: 'abc\r\n', log: ['line:abc'] });
  });
});
