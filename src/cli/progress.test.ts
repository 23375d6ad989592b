import { describe, expect, it } from 'vitest';
import { startProgress } from './progress.ts';

/** A fake output that records what was written. */
function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { out: { isTTY, write: (c: string) => (chunks.push(c), true), columns: 80, on: () => undefined, removeListener: () => undefined, cursorTo: () => true, clearLine: () => true, moveCursor: () => true }, text: () => chunks.join('') };
}

describe('startProgress', () => {
  it('prints one plain line per step, and the elapsed time at the end, where the output is not a terminal', () => {
    let t = 1000;
    const { out, text } = sink(false);
    const p = startProgress('rootfs', out, () => t);
    p.step('I: Retrieving InRelease');
    t = 3500;
    p.done('ready');
    expect(text()).toBe('rootfs...\nrootfs: I: Retrieving InRelease\nrootfs: ready (2.5s)\n');
  });

  it('names the failure in a plain line', () => {
    const { out, text } = sink(false);
    const p = startProgress('image', out, () => 0);
    p.fail('debootstrap exited 1');
    expect(text()).toBe('image...\nimage: failed: debootstrap exited 1\n');
  });

  it('on a terminal, ends with a success line that holds the title, the text and the elapsed time', () => {
    let t = 0;
    const { out, text } = sink(true);
    const p = startProgress('rootfs', out, () => t);
    p.step('unpacking');
    t = 1200;
    p.done('ready');
    expect(text()).toMatch(/rootfs: ready \(1\.2s\)\n$/);
    expect(text()).not.toMatch(/^rootfs\.\.\.\n/);
  });
});
