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
    expect(env).toStrictEqual({ type: 'op.start', op: 'exec', args: { cmd: ['echo', 'hi'], stdin: 'true', tty: 'true', rows: '24' } });
  });

  it('turns numbers and booleans in args into strings and drops other types', () => {
    const env = decodeControl('control:{"type":"op.start","op":"exec","args":{"rows":24,"tty":true,"x":null,"o":{},"cmd":["a",1,null]}}');
    expect(env).toStrictEqual({ type: 'op.start', op: 'exec', args: { rows: '24', tty: 'true', cmd: ['a', '1'] } });
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

  it.each([
    ['control:{"type":', 'control envelope is not valid JSON'],
    ['control:', 'control envelope is not valid JSON'],
    ['control:[1]', 'control envelope is not a JSON object'],
    ['control:null', 'control envelope is not a JSON object'],
    ['control:"op.start"', 'control envelope is not a JSON object'],
    ['control:7', 'control envelope is not a JSON object'],
    ['control:{}', 'unknown control type null'],
    ['control:{"type":"op.bogus"}', 'unknown control type "op.bogus"'],
    ['control:{"type":"op.start","args":{}}', 'op.start needs an op'],
    ['control:{"type":"op.start","op":"","args":{}}', 'op.start needs an op'],
    ['control:{"type":"op.start","op":5}', 'control op must be a string'],
    ['control:{"type":"op.start","op":"exec","id":7}', 'control id must be a string'],
    ['control:{"type":"op.ack","id":null}', 'control id must be a string'],
    ['control:{"type":"op.start","op":"exec","args":[]}', 'op.start args must be an object'],
    ['control:{"type":"op.start","op":"exec","args":null}', 'op.start args must be an object'],
    ['control:{"type":"op.start","op":"exec","args":"cmd=ls"}', 'op.start args must be an object'],
    ['control:{"type":"op.complete"}', 'op.complete needs an integer args.exitCode'],
    ['control:{"type":"op.complete","args":{"exitCode":"0"}}', 'op.complete needs an integer args.exitCode'],
    ['control:{"type":"op.complete","args":{"exitCode":1.5}}', 'op.complete needs an integer args.exitCode'],
    ['control:{"type":"op.error"}', 'op.error needs a string args.error'],
    ['control:{"type":"op.error","args":{"error":1}}', 'op.error needs a string args.error'],
  ])('refuses %j with the reason %j', (text, reason) => {
    expect(() => decodeControl(text)).toThrow(new ProtocolError(CloseCode.PolicyViolation, reason));
    try {
      decodeControl(text);
    } catch (err) {
      expect((err as ProtocolError).reason).toBe(reason);
      expect((err as ProtocolError).closeCode).toBe(CloseCode.PolicyViolation);
    }
  });

  it('keeps op and id when given, and adds no key for them otherwise', () => {
    expect(decodeControl('control:{"type":"op.start","op":"exec","id":"7"}')).toStrictEqual({ type: 'op.start', op: 'exec', id: '7', args: {} });
    expect(decodeControl('control:{"type":"op.start","op":"exec"}')).toStrictEqual({ type: 'op.start', op: 'exec', args: {} });
    expect(decodeControl('control:{"type":"op.ack","op":"exec","id":"1","args":{"pid":3}}')).toStrictEqual({
      type: 'op.ack',
      op: 'exec',
      id: '1',
      args: { pid: 3 },
    });
    expect(decodeControl('control:{"type":"op.ack","id":"1"}')).toStrictEqual({ type: 'op.ack', id: '1' });
    expect(decodeControl('control:{"type":"op.complete","id":"2","args":{"exitCode":0,"extra":"x"}}')).toStrictEqual({
      type: 'op.complete',
      id: '2',
      args: { exitCode: 0, extra: 'x' },
    });
    expect(decodeControl('control:{"type":"op.error","op":"exec","args":{"error":"busy","code":9}}')).toStrictEqual({
      type: 'op.error',
      op: 'exec',
      args: { error: 'busy', code: 9 },
    });
  });

  it('drops op.ack args that are not an object', () => {
    for (const args of ['[1]', 'null', '"x"', '3']) {
      expect(decodeControl(`control:{"type":"op.ack","op":"exec","args":${args}}`)).toStrictEqual({ type: 'op.ack', op: 'exec' });
    }
  });

  it('keeps falsy arg values that have a string form', () => {
    expect(decodeControl('control:{"type":"op.start","op":"exec","args":{"rows":0,"tty":false,"dir":""}}')).toStrictEqual({
      type: 'op.start',
      op: 'exec',
      args: { rows: '0', tty: 'false', dir: '' },
    });
  });

  it('encodes op.complete and op.error with their op, and clamps the exit code', () => {
    expect(encodeOpComplete(300, 'exec')).toBe('control:{"type":"op.complete","op":"exec","args":{"exitCode":255}}');
    expect(encodeOpComplete(-1)).toBe('control:{"type":"op.complete","args":{"exitCode":255}}');
    expect(encodeOpError('busy')).toBe('control:{"type":"op.error","args":{"error":"busy"}}');
    expect(encodeOpAck()).toBe('control:{"type":"op.ack"}');
  });
});

describe('classifyControlText', () => {
  it('recognises the bare release', () => {
    expect(classifyControlText('{"type":"release"}')).toStrictEqual({ kind: 'release' });
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

  it.each([1, 80, 65535])('accepts proxy port %i, on localhost unless a host is named', (port) => {
    for (const params of [{ port }, { port, host: '' }, { port, host: 7 }]) {
      expect(classifyControlText(JSON.stringify({ type: 'start', operation: 'proxy', params }))).toStrictEqual({
        kind: 'proxy_start',
        host: 'localhost',
        port,
        keepAlive: false,
      });
    }
  });

  it.each([
    ['port 0', { port: 0 }],
    ['port 65536', { port: 65536 }],
    ['a fractional port', { port: 80.5 }],
    ['a string port', { port: '80' }],
    ['no port', {}],
    ['params null', null],
  ])('refuses a proxy start with %s as unsupported data', (_name, params) => {
    const text = JSON.stringify({ type: 'start', operation: 'proxy', params });
    expect(() => classifyControlText(text)).toThrow(new ProtocolError(CloseCode.UnsupportedData, 'Invalid port number'));
    try {
      classifyControlText(text);
    } catch (err) {
      expect((err as ProtocolError).closeCode).toBe(CloseCode.UnsupportedData);
    }
  });

  it('keeps the connection alive only for keep_alive: true', () => {
    const start = (keep_alive: unknown) => classifyControlText(JSON.stringify({ type: 'start', operation: 'proxy', params: { port: 80, keep_alive } }));
    expect(start(true)).toMatchObject({ keepAlive: true });
    expect(start('true')).toMatchObject({ keepAlive: false });
    expect(start(1)).toMatchObject({ keepAlive: false });
  });

  it.each([
    '{"type":"start","operation":"exec","params":{"port":80}}',
    '{"type":"begin","operation":"proxy","params":{"port":80}}',
    '{"type":"op.start","op":"fs.read","args":{"path":"/"}}',
    '{"type":"op.start","op":"exec","args":"cmd=ls"}',
    '{"type":"op.start","op":7,"args":"path=%2F"}',
    '{"type":"op.begin","op":"fs.read","args":"path=%2F"}',
    '{"type":"op.start","op":"xfs.read","args":"path=%2F"}',
    '42',
    'null',
    '"release"',
    '[{"type":"release"}]',
    '{"type":"releases"}',
  ])('passes %s to the running operation as text', (text) => {
    expect(classifyControlText(text)).toStrictEqual({ kind: 'op_text', text });
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
    expect(classifyControlText(resize)).toStrictEqual({ kind: 'op_text', text: resize });
    expect(classifyControlText('hello')).toStrictEqual({ kind: 'op_text', text: 'hello' });
  });

  it('decodes prefixed envelopes', () => {
    expect(classifyControlText(encodeOpComplete(1))).toStrictEqual({
      kind: 'envelope',
      envelope: { type: 'op.complete', args: { exitCode: 1 } },
    });
  });
});
