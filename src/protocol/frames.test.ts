import { describe, it, expect } from 'vitest';
import {
  StreamId,
  encodeFrame,
  encodeExitFrame,
  decodeFrame,
  FrameError,
  frameAsSchemaString,
  frameFromSchemaString,
} from './frames.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/ /g, ''), 'hex'));
/** The `FrameError` that `fn` throws, as `{name, code, message}` (fails when it throws nothing or something else). */
const frameErrorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(FrameError);
    const { name, code, message } = err as FrameError;
    return { name, code, message };
  }
  return expect.unreachable('no FrameError thrown');
};

describe('exec frames', () => {
  it('uses the wire stream ids', () => {
    expect(StreamId).toEqual({ Stdin: 0, Stdout: 1, Stderr: 2, Exit: 3, StdinEof: 4 });
  });

  it('encodes golden bytes', () => {
    expect(hex(encodeFrame(StreamId.Stdout, 'hi\n'))).toBe('0168690a');
    expect(hex(encodeFrame(StreamId.Stderr, Uint8Array.of(0xff, 0x00)))).toBe('02ff00');
    expect(hex(encodeFrame(StreamId.Stdin, 'é'))).toBe('00c3a9');
    expect(hex(encodeFrame(StreamId.StdinEof))).toBe('04');
    expect(hex(encodeFrame(StreamId.Stdout, ''))).toBe('01');
  });

  it('encodes the exit frame as exactly two bytes, clamping out-of-range codes to 255', () => {
    expect(hex(encodeExitFrame(3))).toBe('0303');
    expect(hex(encodeExitFrame(0))).toBe('0300');
    expect(hex(encodeExitFrame(255))).toBe('03ff');
    expect(hex(encodeExitFrame(256))).toBe('03ff');
    expect(hex(encodeExitFrame(-1))).toBe('03ff');
    expect(hex(encodeExitFrame(-2))).toBe('03ff');
    expect(hex(encodeExitFrame(-255))).toBe('03ff');
    expect(hex(encodeExitFrame(254))).toBe('03fe');
    expect(hex(encodeExitFrame(1.9))).toBe('0301');
    expect(hex(encodeExitFrame(Number.POSITIVE_INFINITY))).toBe('03ff');
    expect(hex(encodeExitFrame(Number.NaN))).toBe('03ff');
    expect(hex(encodeFrame(StreamId.Exit, Uint8Array.of(7)))).toBe('0307');
  });

  it('refuses to encode malformed exit, EOF or unknown frames', () => {
    expect(frameErrorOf(() => encodeFrame(StreamId.Exit, Uint8Array.of(1, 2)))).toStrictEqual({
      name: 'FrameError',
      code: 'bad_exit_frame',
      message: 'exit frame payload must be 1 byte, got 2',
    });
    expect(frameErrorOf(() => encodeFrame(StreamId.Exit)).code).toBe('bad_exit_frame');
    expect(frameErrorOf(() => encodeFrame(StreamId.StdinEof, 'xy'))).toStrictEqual({
      name: 'FrameError',
      code: 'bad_eof_frame',
      message: 'stdin EOF frame carries no payload, got 2 bytes',
    });
    expect(frameErrorOf(() => encodeFrame(9 as StreamId, 'x'))).toStrictEqual({
      name: 'FrameError',
      code: 'unknown_stream',
      message: 'unknown stream id 9',
    });
  });

  it.each([-1, 1.5, 5, Number.NaN])('refuses to encode stream id %s with unknown_stream', (id) => {
    expect(frameErrorOf(() => encodeFrame(id as StreamId, 'x'))).toMatchObject({
      code: 'unknown_stream',
      message: `unknown stream id ${id}`,
    });
  });

  it('decodes golden bytes into stream id and payload', () => {
    const f = decodeFrame(bytes('01 68 69 0a'));
    expect(f.streamId).toBe(StreamId.Stdout);
    expect(Buffer.from(f.payload).toString()).toBe('hi\n');
    expect(decodeFrame(bytes('03 03'))).toEqual({ streamId: 3, payload: Uint8Array.of(3) });
    expect(decodeFrame(bytes('04'))).toEqual({ streamId: 4, payload: new Uint8Array(0) });
    expect(decodeFrame(bytes('00'))).toEqual({ streamId: 0, payload: new Uint8Array(0) });
  });

  it('round-trips every stream', () => {
    for (const id of [StreamId.Stdin, StreamId.Stdout, StreamId.Stderr]) {
      const payload = Uint8Array.of(0, 1, 2, 250);
      expect(decodeFrame(encodeFrame(id, payload))).toEqual({ streamId: id, payload });
    }
  });

  it.each([
    ['empty frame', '', 'empty_frame', 'empty frame'],
    ['unknown stream id', '05 41', 'unknown_stream', 'unknown stream id 5'],
    ['exit frame with no code', '03', 'bad_exit_frame', 'exit frame must be exactly 2 bytes, got 1'],
    ['exit frame with two code bytes', '03 01 02', 'bad_exit_frame', 'exit frame must be exactly 2 bytes, got 3'],
  ])('rejects an %s', (_name, h, code, message) => {
    expect(frameErrorOf(() => decodeFrame(bytes(h)))).toStrictEqual({ name: 'FrameError', code, message });
  });

  it('maps frames to and from the spec string form (one char per byte)', () => {
    const frame = encodeExitFrame(200);
    expect(frameAsSchemaString(frame)).toBe('\u0003\u00c8');
    expect(frameFromSchemaString('\u0003\u00c8')).toEqual(frame);
    expect(frameFromSchemaString('\u00ff\u0000')).toEqual(Uint8Array.of(0xff, 0));
    expect(() => frameFromSchemaString('a\u0100')).toThrow(new RangeError('character U+100 at 1 is not a byte'));
  });
});
