import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { channelFrameLimits, limitFrames, type FrameLimits } from './frame-limits.ts';
import { loadAsyncApi } from '../../../scripts/check-asyncapi.ts';
import { DEFAULT_EXEC_STREAM_LIMITS } from '../config/exec-limits.ts';
import { DEFAULT_MAX_HEADER_BYTES } from '../http/oversize.ts';

const LIMITS: FrameLimits = { textBytes: 100, binaryBytes: 1000, maxDepth: 3, maxItems: 5 };

let wss: WebSocketServer | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (wss ? wss.close(() => r()) : r()));
  wss = undefined;
});

/** A server that applies LIMITS to each socket and records its messages; a client connected to it. */
async function pair(): Promise<{ client: WebSocket; got: Array<[string, boolean]>; errors: Array<Error & { messageKind?: string }>; closed: Promise<{ code: number; reason: string }> }> {
  const got: Array<[string, boolean]> = [];
  const errors: Array<Error & { messageKind?: string }> = [];
  wss = new WebSocketServer({ port: 0, maxPayload: 1 << 20 });
  wss.on('connection', (ws) => {
    limitFrames(ws, LIMITS);
    ws.on('message', (d, binary) => got.push([d.toString(), binary]));
    ws.on('error', (e) => errors.push(e));
  });
  await new Promise((r) => wss!.once('listening', r));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`);
  const closed = new Promise<{ code: number; reason: string }>((r) => client.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  client.on('error', () => undefined);
  await new Promise((r) => client.once('open', r));
  return { client, got, errors, closed };
}

describe('limitFrames', () => {
  it('passes messages within the limits, pings included', async () => {
    const p = await pair();
    p.client.ping();
    p.client.send('[1,[2]]');
    p.client.send(Buffer.alloc(1000, 0x62));
    p.client.send('"' + 'x'.repeat(98) + '"');
    p.client.close();
    expect(await p.closed).toEqual({ code: 1005, reason: '' });
    expect(p.got.map(([d, b]) => [d.length, b])).toEqual([[7, false], [1000, true], [100, false]]);
  });

  it('closes 1009 on a text message whose fragments together pass its limit, and says it was text', async () => {
    const p = await pair();
    p.client.send('x'.repeat(60), { fin: false });
    p.client.send('x'.repeat(60), { fin: true });
    expect(await p.closed).toEqual({ code: 1009, reason: 'text message larger than 100 bytes' });
    expect(p.got).toEqual([]);
    expect(p.errors.map((e) => [(e as { code?: string }).code, e.messageKind])).toEqual([['WS_ERR_UNSUPPORTED_MESSAGE_LENGTH', 'text']]);
  });

  it('closes 1009 on a binary message over its own limit', async () => {
    const p = await pair();
    p.client.send(Buffer.alloc(1001));
    expect(await p.closed).toEqual({ code: 1009, reason: 'binary message larger than 1000 bytes' });
    expect(p.errors[0]?.messageKind).toBe('binary');
  });

  it('closes 1008 on text JSON too deep or with too many items; the listeners never see it', async () => {
    for (const [text, reason] of [
      ['[[[[]]]]', 'JSON nested deeper than 3 levels'],
      ['[1,2,3,4,5,6]', 'JSON with more than 5 items'],
    ]) {
      const p = await pair();
      p.client.send(text);
      expect(await p.closed).toEqual({ code: 1008, reason });
      expect(p.got).toEqual([]);
      await new Promise<void>((r) => wss!.close(() => r()));
      wss = undefined;
    }
  });
});

describe('channelFrameLimits', () => {
  it('gives stdin-sized binary messages to exec and control only, and control the command line in text', () => {
    const inputs = { maxStdinBytes: 64 << 20, commandLineMaxBytes: 1 << 20 };
    const of = (c: string) => channelFrameLimits(c, inputs);
    expect(of('exec').binaryBytes).toBe((64 << 20) + 1);
    expect(of('exec/42')).toEqual(of('exec'));
    expect(of('control').binaryBytes).toBe((64 << 20) + 1);
    expect(of('control').textBytes).toBeGreaterThan(1 << 20);
    for (const c of ['exec', 'proxy', 'ports/watch', 'fs/watch']) expect(of(c).textBytes).toBeLessThanOrEqual(1 << 20);
    for (const c of ['proxy', 'ports/watch', 'fs/watch']) expect(of(c).binaryBytes).toBeLessThanOrEqual(1 << 20);
  });
});

describe('spec/asyncapi.yaml x-client-message-limits', () => {
  it('states the default limits of every channel', async () => {
    const spec = await loadAsyncApi();
    const inputs = { maxStdinBytes: DEFAULT_EXEC_STREAM_LIMITS.maxStdinBytes, commandLineMaxBytes: DEFAULT_MAX_HEADER_BYTES };
    const ids: Record<string, string> = { exec: 'exec', execAttach: 'exec/1', control: 'control', proxy: 'proxy', portsWatch: 'ports/watch', fsWatch: 'fs/watch' };
    for (const [id, channel] of Object.entries(ids)) {
      const stated = spec.document.channels().get(id)?.extensions().get('x-client-message-limits')?.value() as Record<string, number>;
      const l = channelFrameLimits(channel, inputs);
      expect({ id, ...stated, note: undefined }).toEqual({ id, textBytes: l.textBytes, binaryBytes: l.binaryBytes, jsonDepth: l.maxDepth, jsonItems: l.maxItems, note: undefined });
    }
  });
});
