import { describe, it, expect, beforeAll, onTestFinished } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MessageInterface } from '@asyncapi/parser';
import { loadAsyncApi, checkAsyncApi, ASYNCAPI_PATH, type LoadedAsyncApi } from '../../scripts/check-asyncapi.ts';
import {
  MessageName,
  joinHostPort,
  parseExecClientMessage,
  parseProxyInit,
  parseWatchSubscribe,
  type ResizeMessage,
  type SignalMessage,
  type SessionInfoMessage,
  type ExitMessage,
  type PortOpenedMessage,
  type PortClosedMessage,
  type PortListMessage,
  type ProxyInitMessage,
  type ProxyResponseMessage,
  type WatchSubscribeMessage,
  type WatchEventMessage,
} from './messages.ts';
import { CloseCode, CloseReason } from './close-codes.ts';
import { StreamId, decodeFrame, encodeExitFrame, encodeFrame, frameAsSchemaString, frameFromSchemaString } from './frames.ts';
import { wsQueryObject } from './query.ts';
import { CONTROL_PREFIX, encodeOpAck, encodeOpComplete, encodeOpError, encodeControl } from './control.ts';

let spec: LoadedAsyncApi;
beforeAll(async () => {
  spec = await loadAsyncApi();
}, 30_000);

const message = (name: string): MessageInterface => {
  const m = spec.document.components().messages().all().find((x) => x.name() === name);
  if (!m) throw new Error(`spec has no message ${name}`);
  return m;
};
const ext = (m: MessageInterface, key: string): unknown => m.extensions().get(key)?.value();

function expectValid(name: string, value: unknown): void {
  const validate = spec.payloadValidator(name);
  const ok = validate(value);
  expect(ok, `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

function expectInvalid(name: string, value: unknown): void {
  expect(spec.payloadValidator(name)(value), `${name} should reject ${JSON.stringify(value)}`).toBe(false);
}

/**
 * One row per JSON message type: `minimal` has exactly the fields the TS type requires (the compiler checks
 * it), `full` has every field the TS type knows. The spec's `required` must equal the minimal keys.
 */
interface Row<T> {
  name: string;
  minimal: T;
  full: T;
}
const row = <T,>(name: string, minimal: T, full: T): Row<unknown> => ({ name, minimal, full });
const port = { port: 3000, address: '127.0.0.1', pid: 1847 };

const jsonRows: Row<unknown>[] = [
  row<ResizeMessage>(MessageName.resize, { type: 'resize', cols: 120, rows: 40 }, { type: 'resize', cols: 65535, rows: 1 }),
  row<SignalMessage>(MessageName.signal, { type: 'signal', signal: 'TERM' }, { type: 'signal', signal: 'SIGTERM' }),
  row<SessionInfoMessage>(
    MessageName.sessionInfo,
    { type: 'session_info', session_id: '20', command: 'sh', created: 1767609000, cols: 0, rows: 0, is_owner: true, tty: false },
    { type: 'session_info', session_id: '1847', command: 'bash', created: 0, cols: 80, rows: 24, is_owner: false, tty: true },
  ),
  row<ExitMessage>(MessageName.exit, { type: 'exit', exit_code: 3 }, { type: 'exit', exit_code: 255 }),
  row<PortOpenedMessage>(MessageName.portOpened, { type: 'port_opened', ...port }, { type: 'port_opened', ...port }),
  row<PortClosedMessage>(MessageName.portClosed, { type: 'port_closed', ...port }, { type: 'port_closed', ...port }),
  row<PortListMessage>(MessageName.portList, { type: 'port_list', ports: [] }, { type: 'port_list', ports: [port] }),
  row<ProxyInitMessage>(MessageName.proxyInit, { port: 5432 }, { host: 'localhost', port: 5432 }),
  row<ProxyResponseMessage>(
    MessageName.proxyResponse,
    { status: 'connected', target: 'localhost:5432' },
    { status: 'connected', target: 'db:5432' },
  ),
  row<WatchSubscribeMessage>(
    MessageName.watchSubscribe,
    { type: 'subscribe', paths: ['/home/sprite'] },
    { type: 'subscribe', paths: ['/a', 'b'], recursive: true, workingDir: '/' },
  ),
  row<WatchEventMessage>(
    MessageName.watchEvent,
    { type: 'event' },
    {
      type: 'event', path: '/a', event: 'write', timestamp: '2026-01-13T10:30:00Z', size: 3, isDir: false,
      message: 'm', paths: ['/a'], recursive: true, workingDir: '/',
    },
  ),
];

const frameRows = [
  { name: 'stdin', id: StreamId.Stdin, frame: encodeFrame(StreamId.Stdin, 'hello\n') },
  { name: 'stdout', id: StreamId.Stdout, frame: encodeFrame(StreamId.Stdout, 'hi\n') },
  { name: 'stderr', id: StreamId.Stderr, frame: encodeFrame(StreamId.Stderr, Uint8Array.of(0xff)) },
  { name: 'exit_frame', id: StreamId.Exit, frame: encodeExitFrame(300) },
  { name: 'stdin_eof', id: StreamId.StdinEof, frame: encodeFrame(StreamId.StdinEof) },
];

const controlRows = [
  { name: 'op.start', text: encodeControl({ type: 'op.start', op: 'exec', args: { cmd: ['ls'], stdin: 'false' } }) },
  { name: 'op.ack', text: encodeOpAck('exec') },
  { name: 'op.complete', text: encodeOpComplete(2, 'exec') },
  { name: 'op.error', text: encodeOpError('busy') },
];

/** Messages with no TS type of their own: raw bytes and sprites-go's bare control dialects (control.ts). */
const untypedNames = ['tty_input', 'tty_output', 'proxy_data', 'release', 'start', 'fs.op.start', 'fs.result', 'fs.data', 'fs.op.complete', 'fs.op.error'];

describe('spec/asyncapi.yaml ⇄ src/protocol', () => {
  it('names exactly the messages src/protocol knows', () => {
    const known = [...jsonRows.map((r) => r.name), ...frameRows.map((r) => r.name), ...controlRows.map((r) => r.name), ...untypedNames];
    expect(spec.messageNames().sort()).toEqual([...known].sort());
  });

  describe.each(jsonRows)('JSON message $name', ({ name, minimal, full }) => {
    it('requires exactly the fields the TS type requires', () => {
      const required = message(name).payload()?.required() ?? [];
      expect([...required].sort()).toEqual(Object.keys(minimal as object).sort());
    });

    it('accepts the minimal and the full TS value', () => {
      expectValid(name, minimal);
      expectValid(name, full);
    });

    it('rejects a value missing a required field', () => {
      for (const key of Object.keys(minimal as object)) {
        const { [key]: _dropped, ...rest } = minimal as Record<string, unknown>;
        expectInvalid(name, rest);
      }
    });
  });

  it('requires session_id as a decimal string, not a number', () => {
    const base = jsonRows.find((r) => r.name === 'session_info')!.minimal as SessionInfoMessage;
    expectInvalid('session_info', { ...base, session_id: 20 });
    expectInvalid('session_info', { ...base, created: '2026-01-01T00:00:00Z' });
  });

  describe.each(frameRows)('binary frame $name', ({ name, id, frame }) => {
    it('carries the stream id of StreamId', () => {
      expect(ext(message(name), 'x-stream-id')).toBe(id);
    });

    it('validates a frame encoded by frames.ts', () => {
      expectValid(name, frameAsSchemaString(frame));
    });

    it('has examples that decode to its stream id', () => {
      const examples = message(name).examples().all();
      expect(examples.length).toBeGreaterThan(0);
      for (const e of examples) expect(decodeFrame(frameFromSchemaString(e.payload() as unknown as string)).streamId).toBe(id);
    });
  });

  it('rejects an exit frame that is not exactly two bytes, and frames of the wrong stream', () => {
    expectInvalid('exit_frame', '\u0003');
    expectInvalid('exit_frame', '\u0003\u0001\u0002');
    expectInvalid('stdout', frameAsSchemaString(encodeFrame(StreamId.Stderr, 'x')));
    expectInvalid('stdin_eof', '\u0004x');
  });

  describe.each(controlRows)('control envelope $name', ({ name, text }) => {
    it('is a text frame with the control prefix whose JSON validates', () => {
      const m = message(name);
      expect(ext(m, 'x-text-prefix')).toBe(CONTROL_PREFIX);
      expect(text.startsWith(CONTROL_PREFIX)).toBe(true);
      expectValid(name, JSON.parse(text.slice(CONTROL_PREFIX.length)));
    });
  });

  it('lists exactly the close codes of CloseCode, with the fixed reasons', () => {
    const table = spec.document.extensions().get('x-close-codes')?.value() as Array<{ code: number; reasons?: string[] }>;
    expect(table.map((r) => r.code).sort()).toEqual(Object.values(CloseCode).sort());
    const reasons = table.flatMap((r) => r.reasons ?? []);
    expect(reasons).toEqual(expect.arrayContaining([CloseReason.InvalidPort, CloseReason.ExpectedJsonInit, CloseReason.UpstreamClosed]));
    expect(table.find((r) => r.code === CloseCode.UnsupportedData)?.reasons).toContain(CloseReason.InvalidPort);
  });

  it('parses every spec example of resize, signal, proxy_init and subscribe with the strict parsers', () => {
    for (const e of message('resize').examples().all()) expect(parseExecClientMessage(JSON.stringify(e.payload()))).toEqual(e.payload());
    for (const e of message('signal').examples().all()) expect(parseExecClientMessage(JSON.stringify(e.payload()))).toEqual(e.payload());
    for (const e of message('proxy_init').examples().all()) expect(parseProxyInit(JSON.stringify(e.payload()))).toEqual(e.payload());
    for (const e of message('subscribe').examples().all()) expect(parseWatchSubscribe(JSON.stringify(e.payload()))).toEqual(e.payload());
  });
});

describe('joinHostPort (the proxy target)', () => {
  it('writes host:port as Go\'s net.JoinHostPort: brackets around any host holding a colon', () => {
    expect(joinHostPort('::1', 8766)).toBe('[::1]:8766');
    expect(joinHostPort('fe80::1%eth0', 80)).toBe('[fe80::1%eth0]:80');
    expect(joinHostPort('2001:db8::1', 443)).toBe('[2001:db8::1]:443');
    expect(joinHostPort('127.0.0.1', 8766)).toBe('127.0.0.1:8766');
    expect(joinHostPort('localhost', 8766)).toBe('localhost:8766');
    expect(joinHostPort('my-sprite.internal', 5432)).toBe('my-sprite.internal:5432');
  });
});

describe('ws query bindings', () => {
  const query = wsQueryObject;

  it('accepts what the JS, Go and Python SDKs send to /exec', () => {
    const v = spec.bindingValidator('exec', 'query');
    for (const qs of [
      'cmd=echo&cmd=hi&path=echo&stdin=true',
      'cmd=bash&path=bash&tty=true&rows=24&cols=80&stdin=true&env=TERM%3Dxterm&env=A%3D&dir=%2Fhome%2Fsprite',
      'cmd=sleep&cmd=9&path=sleep&stdin=false&max_run_after_disconnect=10s',
      'id=1847&tty=true&stdin=true',
    ]) expect(v(query(qs)), `${qs}: ${JSON.stringify(v.errors)}`).toBe(true);
  });

  it('rejects an /exec query with neither cmd nor id, a bad boolean, a bad env item or size', () => {
    const v = spec.bindingValidator('exec', 'query');
    for (const qs of ['stdin=true', 'cmd=ls&tty=yes', 'cmd=ls&env=NOEQUALS', 'cmd=ls&rows=-1', 'cmd=ls&max_run_after_disconnect=ten']) {
      expect(v(query(qs)), qs).toBe(false);
    }
  });

  it('requires a bearer Authorization header on every channel', () => {
    for (const channel of ['exec', 'execAttach', 'control', 'proxy', 'portsWatch', 'fsWatch']) {
      const v = spec.bindingValidator(channel, 'headers');
      expect(v({ authorization: 'Bearer t' })).toBe(true);
      expect(v({})).toBe(false);
      expect(v({ authorization: 'FlyV1 x' })).toBe(false);
    }
  });
});

describe('checkAsyncApi', () => {
  it('finds no problem in spec/asyncapi.yaml', async () => {
    expect(await checkAsyncApi()).toEqual([]);
  }, 30_000);

  it('reports an example that breaks its payload schema', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'asyncapi-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'asyncapi.yaml');
    const text = readFileSync(ASYNCAPI_PATH, 'utf8').replace("session_id: '1847'", 'session_id: 1847');
    writeFileSync(file, text);
    const problems = await checkAsyncApi(file);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/components\.messages\.sessionInfo\.examples\[0\].*session_id/);
  }, 30_000);

  it('reports a parse error as an error diagnostic', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'asyncapi-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'asyncapi.yaml');
    writeFileSync(file, readFileSync(ASYNCAPI_PATH, 'utf8').replace("channel: { $ref: '#/channels/proxy' }", "channel: { $ref: '#/channels/nope' }"));
    const problems = await checkAsyncApi(file);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(/^asyncapi: /);
  }, 30_000);
});
