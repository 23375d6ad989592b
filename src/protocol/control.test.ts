import { describe, it, expect } from 'vitest';
import {
  CONTROL_PREFIX,
  encodeControl,
  decodeControl,
  classifyControlText,
  encodeOpAck,
  encodeOpComplete,
  encodeOpError,
} from './control.ts';
import { ProtocolError, CloseCode } from './close-codes.ts';

describe('control envelopes', () => {
  it('encodes the golden text frames the SDKs parse', () => {
    expect(CONTROL_PREFIX).toBe('control:');
    expect(encodeOpComplete(3)).toBe('control:{"type":"op.complete","args":{"exitCode":3}}');
    expect(encodeOpError('busy', 'exec')).toBe('control:{"type":"op.error","op":"exec","args":{"error":"busy"}}');
    expect(encodeOpAck('exec')).toBe('control:{"type":"op.ack","op":"exec"}');
    expect(encodeControl({ type: 'op.start', op: 'exec', args: { cmd: ['echo', 'hi'], stdin: 'true' } })).toBe(
      'control:{"type":"op.start","op":"exec","args":{"cmd":["echo","hi"],"stdin":"true"}}',
    );
  });

  it('decodes the JS/PY op.start frame', () => {
    const env = decodeControl('control:{"type":"op.start","op":"exec","args":{"cmd":["echo","hi"],"stdin":"true","tty":"true","rows":"24"}}');
    expect(env).toEqual({ type: 'op.start', op: 'exec', args: { cmd: ['echo', 'hi'], stdin: 'true', tty: 'true', rows: '24' } });
  });

  it('turns numbers and booleans in args into strings and drops other types', () => {
    const env = decodeControl('control:{"type":"op.start","op":"exec","args":{"rows":24,"tty":true,"x":null,"o":{},"cmd":["a",1,null]}}');
    expect(env).toEqual({ type: 'op.start', op: 'exec', args: { rows: '24', tty: 'true', cmd: ['a', '1'] } });
  });

  it('round-trips every envelope type', () => {
    for (const text of [encodeOpAck(), encodeOpComplete(0, 'exec'), encodeOpError('op.not_active')]) {
      expect(encodeControl(decodeControl(text)!)).toBe(text);
    }
  });

  it('returns null for a frame without the prefix', () => {
    expect(decodeControl('{"type":"release"}')).toBeNull();
    expect(decodeControl('{"type":"resize","cols":80,"rows":24}')).toBeNull();
  });

  it.each([
    ['bad JSON', 'control:{"type":'],
    ['a non-object', 'control:[1]'],
    ['an unknown type', 'control:{"type":"op.bogus"}'],
    ['op.start without op', 'control:{"type":"op.start","args":{}}'],
    ['op.complete without exitCode', 'control:{"type":"op.complete","args":{"ok":true}}'],
    ['op.error without error', 'control:{"type":"op.error","args":{"code":"op.busy"}}'],
  ])('rejects %s with a policy close', (_name, text) => {
    try {
      decodeControl(text);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).closeCode).toBe(CloseCode.PolicyViolation);
    }
  });
});

describe('classifyControlText', () => {
  it('recognises the bare release', () => {
    expect(classifyControlText('{"type":"release"}')).toEqual({ kind: 'release' });
  });

  it('recognises the sprites-go bare proxy start', () => {
    expect(classifyControlText('{"type":"start","operation":"proxy","params":{"host":"db","port":5432,"keep_alive":true}}')).toEqual({
      kind: 'proxy_start',
      host: 'db',
      port: 5432,
      keepAlive: true,
    });
    expect(() => classifyControlText('{"type":"start","operation":"proxy","params":{"port":0}}')).toThrow('Invalid port number');
  });

  it('recognises the sprites-go fs op with URL-encoded args', () => {
    const c = classifyControlText('{"type":"op.start","op":"fs.read","args":"path=%2Fa%20b&workingDir=%2F"}');
    expect(c.kind).toBe('fs_op');
    if (c.kind !== 'fs_op') return;
    expect(c.op).toBe('fs.read');
    expect(c.args.get('path')).toBe('/a b');
    expect(c.args.get('workingDir')).toBe('/');
  });

  it('passes other text to the running operation', () => {
    const resize = '{"type":"resize","cols":80,"rows":24}';
    expect(classifyControlText(resize)).toEqual({ kind: 'op_text', text: resize });
    expect(classifyControlText('hello')).toEqual({ kind: 'op_text', text: 'hello' });
  });

  it('decodes prefixed envelopes', () => {
    expect(classifyControlText(encodeOpComplete(1))).toEqual({
      kind: 'envelope',
      envelope: { type: 'op.complete', args: { exitCode: 1 } },
    });
  });
});
