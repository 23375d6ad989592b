import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { socketListener } from './exec.ts';
import { CloseCode, CloseReason } from '../../protocol/close-codes.ts';

const LIMITS = { maxStdinBytes: 1024, outputChunkBytes: 4, outputHighWaterBytes: 8, maxQueuedOutputBytes: 16 };

/** The parts of a `ws` WebSocket that `socketListener` uses; `send` callbacks wait until `flush()`. */
function fakeSocket() {
  const ws = Object.assign(new EventEmitter(), {
    OPEN: 1,
    readyState: 1,
    sent: [] as Array<Buffer | string>,
    closed: null as null | { code: number; reason: string },
    callbacks: [] as Array<() => void>,
    send(data: Uint8Array | string, opts?: unknown, cb?: () => void) {
      ws.sent.push(typeof data === 'string' ? data : Buffer.from(data));
      if (typeof opts === 'function') ws.callbacks.push(opts as () => void);
      else if (cb) ws.callbacks.push(cb);
    },
    close(code: number, reason = '') {
      ws.closed = { code, reason };
      ws.readyState = 2;
    },
    /** The socket flushed everything; lets the paced queue resume on the next turn. */
    async flush() {
      for (const cb of ws.callbacks.splice(0)) cb();
      await new Promise((r) => setImmediate(r));
    },
  });
  return ws;
}

const asWs = (f: ReturnType<typeof fakeSocket>) => f as unknown as WebSocket;

describe('socketListener (exec output over WebSocket)', () => {
  it('sends output as [1]/[2] frames of at most outputChunkBytes, paced, and [3, code] + close 1000 after all of it', async () => {
    const ws = fakeSocket();
    const l = socketListener(asWs(ws), false, LIMITS);
    l.output('stdout', new TextEncoder().encode('0123456789'));
    l.output('stderr', new TextEncoder().encode('err'));
    l.exit(7);
    expect(ws.sent.map((b) => [...(b as Buffer)])).toEqual([
      [1, ...Buffer.from('0123')],
      [1, ...Buffer.from('4567')],
    ]);
    expect(ws.closed).toBeNull();
    await ws.flush();
    await ws.flush();
    expect(ws.sent.map((b) => Buffer.from(b as Buffer).toString('latin1'))).toEqual(['\x010123', '\x014567', '\x0189', '\x02err', '\x03\x07']);
    expect(ws.closed).toEqual({ code: CloseCode.Normal, reason: '' });
  });

  it('in TTY mode sends raw chunks, then the text exit message', async () => {
    const ws = fakeSocket();
    const l = socketListener(asWs(ws), true, LIMITS);
    l.output('stdout', new TextEncoder().encode('abcdef'));
    l.exit(0);
    await ws.flush();
    expect(ws.sent.map(String)).toEqual(['abcd', 'ef', '{"type":"exit","exit_code":0}']);
    expect(ws.closed?.code).toBe(CloseCode.Normal);
  });

  it('closes a client that falls more than maxQueuedOutputBytes behind with 1013, and reports it once', () => {
    const ws = fakeSocket();
    let overflows = 0;
    const l = socketListener(asWs(ws), false, LIMITS, () => overflows++);
    l.output('stdout', new Uint8Array(8)); // in flight: the reader never acknowledges
    for (let i = 0; i < 5; i++) l.output('stdout', new Uint8Array(5));
    expect(ws.closed).toEqual({ code: CloseCode.TryAgainLater, reason: CloseReason.ClientTooSlow });
    expect(overflows).toBe(1);
    l.exit(0);
    expect(ws.sent.length).toBe(2);
  });

  it('drops queued output when the socket closes', async () => {
    const ws = fakeSocket();
    const l = socketListener(asWs(ws), false, LIMITS);
    l.output('stdout', new Uint8Array(100));
    ws.readyState = 3;
    ws.emit('close');
    await ws.flush();
    expect(ws.sent.length).toBe(2);
  });
});
