/**
 * The Docker runtime's exec stream as the agent bridge reads it: stdout demultiplexed with backpressure, and a
 * frame no dockerd sends refused. No daemon needed.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { demuxExecStdout } from './boxes.ts';

/** One frame of Docker's multiplexed stream. */
const frame = (stream: number, payload: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt8(stream, 0);
  head.writeUInt32BE(payload.length, 4);
  return Buffer.concat([head, payload]);
};

describe("the Docker exec stream's stdout (the agent bridge)", () => {
  it('keeps stdout bytes, drops stderr, across frames cut anywhere', async () => {
    const raw = new PassThrough();
    const out = demuxExecStdout(raw);
    const all = Buffer.concat([frame(1, Buffer.from('hel')), frame(2, Buffer.from('noise')), frame(1, Buffer.from('lo'))]);
    for (const b of all) raw.write(Buffer.of(b));
    raw.end();
    const got: Buffer[] = [];
    for await (const c of out) got.push(c as Buffer);
    expect(Buffer.concat(got).toString()).toBe('hello');
  });

  it('keeps empty frames and a 1 MiB frame read in 4 KiB pieces, byte for byte', async () => {
    const raw = new PassThrough();
    const out = demuxExecStdout(raw);
    const big = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff;
    const all = Buffer.concat([frame(1, Buffer.alloc(0)), frame(1, Buffer.from('a')), frame(1, big), frame(2, Buffer.alloc(0)), frame(1, Buffer.from('z'))]);
    for (let off = 0; off < all.length; off += 4096) raw.write(all.subarray(off, off + 4096));
    raw.end();
    const got: Buffer[] = [];
    for await (const c of out) got.push(c as Buffer);
    expect(Buffer.concat(got).equals(Buffer.concat([Buffer.from('a'), big, Buffer.from('z')]))).toBe(true);
  });

  it('pauses the exec stream while its reader is behind, so a sprite writing into the pipe is not buffered here', async () => {
    const raw = new PassThrough();
    const out = demuxExecStdout(raw);
    const chunk = frame(1, Buffer.alloc(32 * 1024, 0x61));
    let written = 0;
    while (raw.write(chunk) && written < 10_000) written++;
    await new Promise((r) => setImmediate(r));
    expect(raw.isPaused()).toBe(true);
    expect(out.readableLength).toBeLessThanOrEqual(out.readableHighWaterMark + 64 * 1024);
    expect(written).toBeLessThan(10_000);
    out.resume();
    await new Promise((r) => setImmediate(r));
    expect(raw.isPaused()).toBe(false);
  });

  it('ends the exec stream for a frame no dockerd sends (over 1 MiB)', async () => {
    const raw = new PassThrough().on('error', () => undefined);
    demuxExecStdout(raw);
    const head = Buffer.alloc(8);
    head.writeUInt8(1, 0);
    head.writeUInt32BE(1 << 30, 4);
    raw.write(head);
    await new Promise((r) => setImmediate(r));
    expect(raw.destroyed).toBe(true);
  });
});
