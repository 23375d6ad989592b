import { describe, expect, it } from 'vitest';
import { deliverSliced } from './sliced-output.ts';

describe('deliverSliced', () => {
  it('delivers a short string at once, synchronously, as one chunk', async () => {
    const got: Uint8Array[] = [];
    const done = deliverSliced('héllo', 'utf8', (d) => got.push(d), 16);
    expect(got.map((d) => Buffer.from(d).toString())).toEqual(['héllo']); // before any await
    await done;
    expect(got).toHaveLength(1);
  });

  it('delivers a long byte string in slices, with the event loop served between them, bytes unchanged', async () => {
    const text = Array.from({ length: 100 }, (_, i) => String.fromCharCode(i * 2.5)).join('');
    const got: Uint8Array[] = [];
    await deliverSliced(text, 'latin1', (d) => got.push(d), 16);
    expect(got.map((d) => d.length)).toEqual([16, 16, 16, 16, 16, 16, 4]);
    expect(Buffer.concat(got)).toEqual(Buffer.from(text, 'latin1'));
    // Another callback (an I/O turn, a timer) ran between the first and the last slice.
    const between = await new Promise<boolean>((resolve) => {
      const order: string[] = [];
      setImmediate(() => order.push('other'));
      void deliverSliced('x'.repeat(64), 'latin1', () => order.push('slice'), 16).then(() => resolve(order.indexOf('other') > 0 && order.indexOf('other') < order.length - 1));
    });
    expect(between).toBe(true);
  });

  it('never cuts a UTF-8 slice between the halves of a surrogate pair', async () => {
    const text = 'a'.repeat(15) + '😀' + 'b'.repeat(20); // the pair sits at characters 15 and 16
    const got: Uint8Array[] = [];
    await deliverSliced(text, 'utf8', (d) => got.push(d), 16);
    expect(got.length).toBeGreaterThan(1);
    for (const d of got) expect(Buffer.from(d).toString('utf8')).not.toContain('\ufffd');
    expect(Buffer.concat(got).toString('utf8')).toBe(text);
  });
});
