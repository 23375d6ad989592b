import { describe, it, expect } from 'vitest';
import { FrameSeparator, framedListener, frameGapFor, isJavaScriptFetchUserAgent, type FramedSink, type GapTimer } from './frames.ts';

/** A sink that records frames and holds each write's flush until `flush()`; timers run on `tick()`. */
function harness() {
  const frames: number[][] = [];
  const flushes: Array<() => void> = [];
  const ends: number[] = [];
  let aborted = 0;
  const sink: FramedSink = {
    write(frame, done) {
      frames.push([...frame]);
      flushes.push(done);
    },
    end: (code) => void ends.push(code),
    abort: () => void aborted++,
  };
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const timer: GapTimer = {
    setTimeout: (fn, ms) => timers.push({ fn, ms }),
    clearTimeout: () => {
      timers.length = 0;
    },
  };
  return {
    sink,
    timer,
    frames,
    ends,
    aborted: () => aborted,
    flush: () => flushes.shift()!(),
    tick: () => timers.shift()!.fn(),
    timers,
  };
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe('FrameSeparator', () => {
  it('writes one frame at a time, the next only after the flush and the gap', () => {
    const h = harness();
    const sep = new FrameSeparator(h.sink, 1024, 50, h.timer);
    sep.write('stdout', bytes('hi\n'), () => {});
    sep.write('stderr', bytes('err\n'), () => {});
    sep.exit(3);
    expect(h.frames).toEqual([[1, ...bytes('hi\n')]]);
    h.flush();
    expect(h.frames).toHaveLength(1);
    expect(h.timers.map((t) => t.ms)).toEqual([50]);
    h.tick();
    expect(h.frames[1]).toEqual([2, ...bytes('err\n')]);
    h.flush();
    h.tick();
    expect(h.frames[2]).toEqual([3, 3]);
    expect(h.ends).toEqual([]);
    h.flush();
    expect(h.ends).toEqual([3]);
    expect(h.timers).toHaveLength(0);
  });

  it('joins output of one stream that waits into one frame, up to the frame size, and calls every done', () => {
    const h = harness();
    const sep = new FrameSeparator(h.sink, 6, 5, h.timer);
    const done: string[] = [];
    sep.write('stdout', bytes('a'), () => done.push('a'));
    sep.write('stdout', bytes('bc'), () => done.push('bc'));
    sep.write('stdout', bytes('def'), () => done.push('def'));
    sep.write('stdout', bytes('g'), () => done.push('g'));
    sep.write('stdout', bytes('hi'), () => done.push('hi'));
    sep.write('stderr', bytes('x'), () => done.push('x'));
    h.flush();
    expect(done).toEqual(['a']);
    h.tick();
    expect(h.frames[1]).toEqual([1, ...bytes('bcdefg')]);
    h.flush();
    expect(done).toEqual(['a', 'bc', 'def', 'g']);
    h.tick();
    expect(h.frames[2]).toEqual([1, ...bytes('hi')]);
    h.flush();
    h.tick();
    expect(h.frames[3]).toEqual([2, ...bytes('x')]);
  });

  it('with a gap of 0 writes the next frame right after the flush, still one at a time', () => {
    const h = harness();
    const sep = new FrameSeparator(h.sink, 1024, 0, h.timer);
    sep.write('stdout', bytes('a'), () => {});
    sep.write('stderr', bytes('b'), () => {});
    expect(h.frames).toHaveLength(1);
    h.flush();
    expect(h.frames).toEqual([[1, 97], [2, 98]]);
    expect(h.timers).toHaveLength(0);
  });

  it('close drops what waits, calls its done callbacks, and ignores later output and exit', () => {
    const h = harness();
    const sep = new FrameSeparator(h.sink, 1024, 5, h.timer);
    const done: string[] = [];
    sep.write('stdout', bytes('a'), () => done.push('a'));
    sep.write('stderr', bytes('b'), () => done.push('b'));
    sep.close();
    expect(done).toEqual(['b']);
    sep.write('stdout', bytes('c'), () => done.push('c'));
    sep.exit(0);
    expect(done).toEqual(['b', 'c']);
    expect(h.frames).toHaveLength(1);
    h.flush();
    expect(h.ends).toEqual([]);
  });
});

describe('framedListener', () => {
  it('frames output and the exit code apart and ends the sink', async () => {
    const h = harness();
    const l = framedListener(h.sink, undefined, 7, h.timer);
    l.output('stdout', bytes('out'));
    l.output('stderr', bytes('err'));
    l.exit(300);
    await new Promise((r) => setImmediate(r));
    h.flush();
    h.tick();
    h.flush();
    h.tick();
    expect(h.frames).toEqual([[1, ...bytes('out')], [2, ...bytes('err')], [3, 255]]);
    expect(h.timers).toEqual([]);
    h.flush();
    expect(h.ends).toEqual([300]);
  });

  it('close() drops queued output: no exit frame follows', async () => {
    const h = harness();
    const l = framedListener(h.sink, undefined, 7, h.timer);
    l.output('stdout', bytes('a'));
    l.output('stderr', bytes('b'));
    l.close();
    l.exit(0);
    h.flush();
    await new Promise((r) => setImmediate(r));
    expect(h.frames).toEqual([[1, 97]]);
    expect(h.timers).toEqual([]);
    expect(h.ends).toEqual([]);
  });

  it('aborts the sink when the reader falls more than maxQueuedOutputBytes behind', () => {
    const h = harness();
    const limits = { maxStdinBytes: 10, outputChunkBytes: 4, outputHighWaterBytes: 4, maxQueuedOutputBytes: 8 };
    const l = framedListener(h.sink, limits, 7, h.timer);
    l.output('stdout', bytes('abcd'));
    l.output('stdout', bytes('efgh'));
    expect(h.aborted()).toBe(0);
    l.output('stdout', bytes('ijklmnop'));
    expect(h.aborted()).toBe(1);
  });

  it('with the real timers, writes the frames apart and ends the sink', async () => {
    const frames: number[][] = [];
    const ended = new Promise<number>((resolve) => {
      const l = framedListener(
        { write: (f, done) => (frames.push([...f]), setImmediate(done)), end: resolve, abort: () => {} },
        undefined,
        1,
      );
      l.output('stdout', bytes('x'));
      l.output('stderr', bytes('y'));
      l.exit(2);
    });
    expect(await ended).toBe(2);
    expect(frames).toEqual([[1, 120], [2, 121], [3, 2]]);
  });
});

describe('FrameSeparator after the exit frame', () => {
  it('takes no more output once the exit frame was flushed', () => {
    const h = harness();
    const sep = new FrameSeparator(h.sink, 1024, 5, h.timer);
    sep.exit(0);
    h.flush();
    const done: string[] = [];
    sep.write('stdout', bytes('late'), () => done.push('late'));
    expect(done).toEqual(['late']);
    expect(h.frames).toEqual([[3, 0]]);
  });
});

describe('frameGapFor (who pays the gap)', () => {
  it('recognises the default User-Agent of fetch-based JavaScript runtimes and the JS SDK\'s own, and only those', () => {
    const sdk = ['sprites-js/0.2.0', 'sprites-js/0.2.0 (interactive=false; parent=node)', 'sprites-js/1.0.0 (interactive=true; parent=shell; agent=claude-code)'];
    for (const ua of ['node', 'undici', ' node ', 'Node', 'Deno/2.1.4', 'Deno/1.46.3', 'Bun/1.1.38', 'bun/1.2.0', ...sdk]) expect(isJavaScriptFetchUserAgent(ua), ua).toBe(true);
    for (const ua of [undefined, '', 'sprites-go-sdk/1.0', 'Go-http-client/1.1', 'python-httpx/0.27.0', 'python-requests/2.32.3', 'curl/8.5.0', 'node-fetch/1.0', 'nodejs', 'Mozilla/5.0 Bun/1.1', 'Denon/1', 'undici-x', 'sprites-py/0.1.0', 'my-sprites-js/1', 'sprites-jsx/1']) {
      expect(isJavaScriptFetchUserAgent(ua), String(ua)).toBe(false);
    }
  });

  it('gives the gap to fetch runtimes by default, to everyone with "all", to no one at 0', () => {
    expect(frameGapFor('node', 50)).toBe(50);
    expect(frameGapFor('Bun/1.1.38', 50, 'fetch')).toBe(50);
    expect(frameGapFor('Go-http-client/1.1', 50)).toBe(0);
    expect(frameGapFor(undefined, 50)).toBe(0);
    expect(frameGapFor('curl/8.5.0', 50, 'all')).toBe(50);
    expect(frameGapFor(undefined, 70, 'all')).toBe(70);
    expect(frameGapFor('node', 0)).toBe(0);
    expect(frameGapFor('curl/8.5.0', 0, 'all')).toBe(0);
  });
});
