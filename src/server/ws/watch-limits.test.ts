import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { boundedSender, watchPaths } from './watch-limits.ts';
import { ProtocolError } from '../../protocol/close-codes.ts';
import { DEFAULT_LIMITS } from '../core/limits.ts';

function refusal(fn: () => unknown): { code: number; reason: string } | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (e instanceof ProtocolError) return { code: e.closeCode, reason: e.reason };
    throw e;
  }
}

describe('watchPaths', () => {
  it('normalises against workingDir and keeps each path once, in first-seen order', () => {
    expect(watchPaths(['b', '/x/../a', 'b/', '/a'], '/w', false)).toEqual(['/w/b', '/a']);
  });

  it('200,000 copies of / are one path', () => {
    expect(watchPaths(Array(200_000).fill('/'), undefined, true)).toEqual(['/']);
  });

  it('with recursive, drops paths inside another listed path (and only those)', () => {
    const paths = ['/a/b/c', '/a-b', '/a/b', '/ab', '/a-b/x', '/z/y', '/a/bb'];
    expect(watchPaths(paths, undefined, true)).toEqual(['/a-b', '/a/b', '/ab', '/z/y', '/a/bb']);
    expect(watchPaths(paths, undefined, false)).toEqual(paths);
    expect(watchPaths(['/home', '/', '/tmp'], undefined, true)).toEqual(['/']);
  });

  it('refuses more than watchPathsMax distinct paths with 1008, before resolving any', () => {
    const many = Array.from({ length: DEFAULT_LIMITS.watchPathsMax + 1 }, (_, i) => `/p${i}`);
    expect(refusal(() => watchPaths(many, undefined, true))).toEqual({ code: 1008, reason: 'too many paths: at most 1024 per subscribe' });
    expect(watchPaths(many.slice(1), undefined, true)).toHaveLength(1024);
  });

  it('refuses a path or workingDir that fails the path checks with 1008', () => {
    expect(refusal(() => watchPaths(['/a'.repeat(2048)], undefined, true))).toEqual({ code: 1008, reason: 'invalid path: ENAMETOOLONG' });
    expect(refusal(() => watchPaths(['x'.repeat(300)], undefined, true))?.reason).toBe('invalid path: ENAMETOOLONG');
    expect(refusal(() => watchPaths(['ok'], '/a'.repeat(2047), true))?.reason).toBe('invalid path: ENAMETOOLONG'); // joined too long
    expect(refusal(() => watchPaths(['/tmp/a\nb'], undefined, true))?.reason).toBe('invalid path: EINVAL');
    expect(refusal(() => watchPaths(['a'], '/tmp\0', true))?.reason).toBe('invalid path: EINVAL');
  });
});

/** A socket that never drains: every sent byte stays buffered. */
function stuckSocket() {
  const ws = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    sent: [] as string[],
    closed: undefined as undefined | { code: number; reason: string },
    send(text: string) {
      this.sent.push(text);
      this.bufferedAmount += text.length;
    },
    close(code: number, reason: string) {
      this.closed = { code, reason };
      this.readyState = 2;
    },
  };
  return ws;
}

describe('boundedSender', () => {
  it('drops the watcher with 1013 once more than the cap waits, then sends nothing more', () => {
    const ws = stuckSocket();
    let drops = 0;
    const send = boundedSender(ws as unknown as WebSocket, () => drops++, { watchBufferedBytes: 100 });
    const results: boolean[] = [];
    for (let i = 0; i < 50; i++) results.push(send('x'.repeat(30)));
    expect(results.slice(0, 3)).toEqual([true, true, true]);
    expect(results[3]).toBe(false); // 120 bytes waiting > 100
    expect(results.slice(4).every((r) => r === false)).toBe(true);
    expect(ws.sent).toHaveLength(4);
    expect(drops).toBe(1);
    expect(ws.closed).toEqual({ code: 1013, reason: 'watcher too slow: more than 100 bytes of events waiting' });
  });

  it('keeps sending to a client that reads (the backlog drains)', () => {
    const ws = stuckSocket();
    const send = boundedSender(ws as unknown as WebSocket, () => {}, { watchBufferedBytes: 100 });
    for (let i = 0; i < 1000; i++) {
      expect(send('y'.repeat(60))).toBe(true);
      ws.bufferedAmount = 0; // the kernel took it
    }
    expect(ws.closed).toBeUndefined();
  });
});
