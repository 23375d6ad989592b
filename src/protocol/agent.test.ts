import { describe, expect, it } from 'vitest';
import {
  decodeEnvelope,
  decodeResize,
  encodeEnvelope,
  encodeEventBatches,
  encodeFrame,
  encodeResize,
  FrameDecoder,
  FrameType,
  MAX_PAYLOAD_BYTES,
  ProtocolError,
} from './agent.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('agent protocol frames', () => {
  it('encodes golden bytes: length, type, channel, payload', () => {
    expect(hex(encodeFrame(FrameType.Stdout, 7, Uint8Array.of(0xff, 0x00)))).toBe('00000007' + '06' + '00000007' + 'ff00');
    expect(hex(encodeFrame(FrameType.StdinEof, 0x01020304))).toBe('00000005' + '05' + '01020304');
  });

  it('decodes frames split at every byte boundary and several frames in one chunk', () => {
    const a = encodeFrame(FrameType.Stdout, 1, Buffer.from('hello'));
    const b = encodeFrame(FrameType.Exit, 1, Buffer.from('{"code":3}'));
    const all = Buffer.concat([a, b]);
    const dec = new FrameDecoder();
    const got = [];
    for (const byte of all) got.push(...dec.push(Buffer.of(byte)));
    expect(got.map((f) => [f.type, f.channel, f.payload.toString()])).toEqual([
      [FrameType.Stdout, 1, 'hello'],
      [FrameType.Exit, 1, '{"code":3}'],
    ]);
    expect(new FrameDecoder().push(all)).toHaveLength(2);
  });

  it('keeps binary payloads byte-exact (every byte value)', () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const [f] = new FrameDecoder().push(encodeFrame(FrameType.Data, 9, bytes));
    expect(f!.payload.equals(bytes)).toBe(true);
  });

  it('rejects an unknown frame type and an impossible length', () => {
    const bad = Buffer.from('00000005' + '63' + '00000001', 'hex');
    expect(() => new FrameDecoder().push(bad)).toThrow(ProtocolError);
    expect(() => new FrameDecoder().push(Buffer.from('00000002' + '01', 'hex'))).toThrow(/bad frame length 2/);
    expect(() => new FrameDecoder().push(Buffer.from('7fffffff' + '01', 'hex'))).toThrow(/bad frame length/);
  });

  it('carries JSON plus a binary tail in CALL/REPLY envelopes', () => {
    const env = encodeEnvelope({ op: 'writeFile', path: '/x' }, Uint8Array.of(0, 255));
    const { json, tail } = decodeEnvelope(env);
    expect(json).toEqual({ op: 'writeFile', path: '/x' });
    expect(hex(tail)).toBe('00ff');
    expect(() => decodeEnvelope(Buffer.from('000000ff7b', 'hex'))).toThrow(ProtocolError);
    expect(() => decodeEnvelope(Buffer.from('000000017b', 'hex'))).toThrow(/does not parse/);
  });

  it('encodes a resize as two u16, clamped to 1..65535', () => {
    expect(hex(encodeResize(120, 40))).toBe('00780028');
    expect(decodeResize(encodeResize(0, 70000))).toEqual({ cols: 1, rows: 65535 });
    expect(() => decodeResize(Buffer.of(1))).toThrow(ProtocolError);
  });

  it('decodes a frame with an empty payload (stdin EOF is 9 bytes)', () => {
    const [f] = new FrameDecoder().push(encodeFrame(FrameType.StdinEof, 3));
    expect(f).toStrictEqual({ type: FrameType.StdinEof, channel: 3, payload: Buffer.alloc(0) });
  });

  it('decodes frames from chunks that cut them anywhere, keeping the bytes after a frame for the next one', () => {
    const a = encodeFrame(FrameType.Stdout, 1, Buffer.from('hello world'));
    const b = encodeFrame(FrameType.Stderr, 2, Buffer.from('oops'));
    const c = encodeFrame(FrameType.Exit, 1, Buffer.from('{"code":0}'));
    const all = Buffer.concat([a, b, c]);
    for (let cut1 = 1; cut1 < all.length - 1; cut1++) {
      for (const cut2 of [cut1 + 1, Math.min(all.length - 1, cut1 + 13)]) {
        const dec = new FrameDecoder();
        const got = [...dec.push(all.subarray(0, cut1)), ...dec.push(all.subarray(cut1, cut2)), ...dec.push(all.subarray(cut2))];
        expect(got.map((f) => [f.type, f.channel, f.payload.toString()]), `cuts at ${cut1}, ${cut2}`).toStrictEqual([
          [FrameType.Stdout, 1, 'hello world'],
          [FrameType.Stderr, 2, 'oops'],
          [FrameType.Exit, 1, '{"code":0}'],
        ]);
      }
    }
  });

  it('accepts every known frame type and refuses the ones just outside (0 and Started + 1), naming the type', () => {
    for (const type of Object.values(FrameType)) {
      expect(new FrameDecoder().push(encodeFrame(type, 1))[0]!.type).toBe(type);
    }
    const frameOfType = (t: number) => Buffer.from('00000005' + t.toString(16).padStart(2, '0') + '00000001', 'hex');
    expect(() => new FrameDecoder().push(frameOfType(0))).toThrow('unknown frame type 0');
    expect(() => new FrameDecoder().push(frameOfType(FrameType.Started + 1))).toThrow(`unknown frame type ${FrameType.Started + 1}`);
  });

  it('allows payloads of exactly 1 GiB and refuses one byte more, on both sides', () => {
    expect(MAX_PAYLOAD_BYTES).toBe(1024 ** 3);
    const header = (length: number) => {
      const h = Buffer.alloc(4);
      h.writeUInt32BE(length, 0);
      return h;
    };
    // A header announcing a 1 GiB payload is waited on, not refused; one byte more is a protocol error.
    expect(new FrameDecoder().push(header(5 + MAX_PAYLOAD_BYTES))).toStrictEqual([]);
    expect(() => new FrameDecoder().push(header(6 + MAX_PAYLOAD_BYTES))).toThrow(`bad frame length ${6 + MAX_PAYLOAD_BYTES}`);
    expect(() => new FrameDecoder().push(header(4))).toThrow('bad frame length 4');
    // The encoder checks the length before allocating anything: an oversized payload never reaches the socket.
    const oversized = { byteLength: MAX_PAYLOAD_BYTES + 1 } as Uint8Array;
    const largest = { byteLength: MAX_PAYLOAD_BYTES } as Uint8Array;
    expect(encodeFrame(FrameType.Data, 1, largest).readUInt32BE(0)).toBe(5 + MAX_PAYLOAD_BYTES);
    expect(() => encodeFrame(FrameType.Data, 1, oversized)).toThrow(`payload of ${MAX_PAYLOAD_BYTES + 1} bytes exceeds ${MAX_PAYLOAD_BYTES}`);
  });

  it('names its errors ProtocolError', () => {
    try {
      new FrameDecoder().push(Buffer.from('00000002', 'hex'));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProtocolError);
      expect((err as Error).name).toBe('ProtocolError');
    }
  });

  it('says which part of an envelope is malformed', () => {
    expect(() => decodeEnvelope(Buffer.of(0, 0, 0))).toThrow('envelope shorter than its length field');
    expect(() => decodeEnvelope(Buffer.from('00000000', 'hex'))).toThrow('envelope JSON does not parse');
    expect(() => decodeEnvelope(Buffer.from('000000027b7d', 'hex'))).not.toThrow();
    expect(() => decodeEnvelope(Buffer.from('000000037b7d', 'hex'))).toThrow('envelope JSON runs past the frame');
    expect(() => decodeResize(Buffer.of(0, 1, 0, 1, 0))).toThrow('resize payload must be 4 bytes');
  });
});

describe('agent protocol bounds', () => {
  it('judges a frame by its header: a limit refuses it before its payload arrives, and no limit takes up to 1 GiB', () => {
    const head = Buffer.from('40000005' + '06' + '00000001', 'hex'); // STDOUT declaring 1 GiB
    const limited = new FrameDecoder((type) => (type === FrameType.Stdout ? 1024 : MAX_PAYLOAD_BYTES));
    expect(() => limited.push(head)).toThrow(/declares 1073741824 bytes, over its limit of 1024/);
    expect(new FrameDecoder().push(head)).toEqual([]);
    // A frame within its limit is taken, split anywhere.
    const ok = encodeFrame(FrameType.Stdout, 1, Buffer.alloc(1024, 1));
    const dec = new FrameDecoder(() => 1024);
    expect([...dec.push(ok.subarray(0, 5)), ...dec.push(ok.subarray(5, 12)), ...dec.push(ok.subarray(12))]).toHaveLength(1);
    expect(() => new FrameDecoder(() => 1023).push(ok.subarray(0, 9))).toThrow(ProtocolError);
  });

  it('splits a large batch of changes over EVENT payloads of at most the given size, in order', () => {
    const changes = Array.from({ length: 5000 }, (_, i) => ({ path: `/tmp/${'d'.repeat(200)}/${i}`, event: 'remove', isDir: false, size: 0 }));
    const payloads = encodeEventBatches(changes, 64 * 1024);
    expect(payloads.length).toBeGreaterThan(10);
    for (const p of payloads) expect(p.byteLength).toBeLessThanOrEqual(64 * 1024);
    expect(payloads.flatMap((p) => JSON.parse(p.toString()) as unknown[])).toEqual(changes);
    expect(encodeEventBatches([])).toEqual([]);
    expect(encodeEventBatches([{ a: 1 }]).map(String)).toEqual(['[{"a":1}]']);
  });
});
