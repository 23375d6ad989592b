import { describe, expect, it } from 'vitest';
import {
  decodeEnvelope,
  decodeResize,
  encodeEnvelope,
  encodeFrame,
  encodeResize,
  FrameDecoder,
  FrameType,
  ProtocolError,
} from './protocol.ts';

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
});
