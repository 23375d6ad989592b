import { describe, expect, it } from 'vitest';
import { PacedOutput, type OutputStream } from './paced-output.ts';

const LIMITS = { outputChunkBytes: 4, outputHighWaterBytes: 8, maxQueuedOutputBytes: 16 };

/** A sink that records chunks and holds their `done` callbacks until the test flushes them; a manual `defer`. */
function setup(limits = LIMITS) {
  const written: Array<{ stream: OutputStream; text: string }> = [];
  const pendingDone: Array<() => void> = [];
  const deferred: Array<() => void> = [];
  const overflows: number[] = [];
  const out = new PacedOutput(
    {
      write(stream, chunk, done) {
        written.push({ stream, text: Buffer.from(chunk).toString() });
        pendingDone.push(done);
      },
    },
    limits,
    (backlog) => overflows.push(backlog),
    (fn) => void deferred.push(fn),
  );
  return {
    out,
    written,
    overflows,
    /** The socket flushed everything written so far. */
    flush() {
      for (const done of pendingDone.splice(0)) done();
    },
    /** One turn of the event loop. */
    turn() {
      for (const fn of deferred.splice(0)) fn();
    },
    text: () => written.map((w) => w.text).join(''),
  };
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe('PacedOutput', () => {
  it('cuts output into chunks of at most outputChunkBytes and keeps the order of streams', () => {
    const t = setup();
    t.out.push('stdout', bytes('abcdef'));
    t.out.push('stderr', bytes('x'));
    expect(t.written).toEqual([
      { stream: 'stdout', text: 'abcd' },
      { stream: 'stdout', text: 'ef' },
      { stream: 'stderr', text: 'x' },
    ]);
  });

  it('stops at the high-water mark until the socket drains, and resumes only from a later event-loop turn', () => {
    const t = setup();
    t.out.push('stdout', bytes('0123456789abcdef'));
    expect(t.text()).toBe('01234567'); // 8 bytes in flight = the high-water mark
    expect(t.out.queuedBytes).toBe(8);
    t.flush();
    expect(t.text()).toBe('01234567'); // nothing is sent from inside the write callback
    t.turn();
    expect(t.text()).toBe('0123456789abcdef');
    expect(t.out.queuedBytes).toBe(0);
  });

  it('runs `then` after every chunk pushed before it was handed over, and at once on an empty queue', () => {
    const t = setup();
    const order: string[] = [];
    t.out.then(() => order.push('first'));
    expect(order).toEqual(['first']);
    t.out.push('stdout', bytes('0123456789'));
    t.out.then(() => order.push(`exit after ${t.text()}`));
    expect(order).toEqual(['first']);
    t.flush();
    t.turn();
    expect(order).toEqual(['first', 'exit after 0123456789']);
  });

  it('takes one large output whole when nothing is queued, whatever its size', () => {
    const t = setup();
    t.out.push('stdout', new Uint8Array(100));
    expect(t.overflows).toEqual([]);
    for (let i = 0; i < 30 && t.out.queuedBytes > 0; i++) {
      t.flush();
      t.turn();
    }
    expect(t.written.reduce((n, w) => n + w.text.length, 0)).toBe(100);
  });

  it('drops a reader that falls more than maxQueuedOutputBytes behind, once, and ignores output after that', () => {
    const t = setup();
    t.out.push('stdout', new Uint8Array(8)); // all in flight, nothing queued
    t.out.push('stdout', new Uint8Array(10)); // queued: 10
    t.out.push('stdout', new Uint8Array(6)); // queued: 16, at the limit
    expect(t.overflows).toEqual([]);
    let ran = false;
    t.out.then(() => (ran = true));
    t.out.push('stdout', new Uint8Array(1)); // 17 > 16
    expect(t.overflows).toEqual([17]);
    expect(t.out.open).toBe(false);
    expect(t.out.queuedBytes).toBe(0);
    t.out.push('stdout', new Uint8Array(100));
    t.flush();
    t.turn();
    expect(t.overflows).toEqual([17]);
    expect(ran).toBe(false);
    expect(t.written.length).toBe(2); // only what was in flight before the overflow
  });

  it('close() drops what is queued and sends nothing more', () => {
    const t = setup();
    t.out.push('stdout', bytes('0123456789abcdef'));
    t.out.close();
    t.flush();
    t.turn();
    expect(t.text()).toBe('01234567');
  });

  it('delivers every piece of many small pushes behind a slow reader, in order', () => {
    const t = setup({ outputChunkBytes: 4, outputHighWaterBytes: 4, maxQueuedOutputBytes: 1 << 30 });
    for (let i = 0; i < 50_000; i++) t.out.push('stdout', bytes(String(i % 10)));
    while (t.out.queuedBytes > 0) {
      t.flush();
      t.turn();
    }
    expect(t.written.length).toBe(50_000);
    expect(t.text()).toBe('0123456789'.repeat(5_000));
  });
});
