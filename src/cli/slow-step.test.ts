import { afterEach, describe, expect, it, vi } from 'vitest';
import { slowStep } from './slow-step.ts';
import { startProgress } from './progress.ts';

/** A plain (non-terminal) output that records what was written. */
function sink() {
  const chunks: string[] = [];
  return { out: { isTTY: false, write: (c: string) => (chunks.push(c), true) }, text: () => chunks.join('') };
}

/** A promise resolved or rejected from outside. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('slowStep', () => {
  afterEach(() => void vi.useRealTimers());

  it('prints nothing for a step that ends before the threshold', async () => {
    vi.useFakeTimers();
    const { out, text } = sink();
    const d = deferred<string>();
    const step = slowStep('starting the sandbox engine', d.promise, { out, afterMs: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    d.resolve('factory');
    expect(await step).toBe('factory');
    await vi.advanceTimersByTimeAsync(5000);
    expect(text()).toBe('');
  });

  it('past the threshold, says what is going on, then that it is ready, with the elapsed time', async () => {
    vi.useFakeTimers();
    const { out, text } = sink();
    let t = 0;
    const d = deferred<number>();
    const step = slowStep('starting the sandbox engine', d.promise, {
      out,
      afterMs: 1000,
      doneText: 'ready',
      start: (title, o) => startProgress(title, o, () => t),
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(text()).toBe('starting the sandbox engine...\n');
    t = 2500;
    d.resolve(7);
    expect(await step).toBe(7);
    expect(text()).toBe('starting the sandbox engine...\nstarting the sandbox engine: ready (2.5s)\n');
  });

  it('names the failure of a slow step and rejects with the same error', async () => {
    vi.useFakeTimers();
    const { out, text } = sink();
    const d = deferred<void>();
    const step = slowStep('starting the container engine', d.promise, { out, afterMs: 1000 });
    const settled = step.then(() => undefined, (e: Error) => e);
    await vi.advanceTimersByTimeAsync(1500);
    d.reject(new Error('the daemon does not answer'));
    expect(((await settled) as Error).message).toBe('the daemon does not answer');
    expect(text()).toBe('starting the container engine...\nstarting the container engine: failed: the daemon does not answer\n');
  });
});
