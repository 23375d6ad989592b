/**
 * Every client WebSocket message is bounded before it is parsed (docs/limits.md "WebSocket messages"): a message
 * larger than its channel takes closes the socket 1009 with nothing of it buffered, and a text message whose JSON
 * nests too deep or holds too many items closes it 1008 before any channel parses it. The control socket's
 * `op.start` carries no longer a command line than HTTP exec does. After each attack the server answers and earlier
 * state is intact. No timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, startTestServer, TOKEN } from '../../support/server.ts';
import { expectIntact, seedState, withHealthProbe } from '../../support/attack.ts';
import { ControlClient } from '../../support/control-client.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { DEFAULT_MAX_HEADER_BYTES } from '../../../src/server/http/oversize.ts';
import { CONTROL_ENVELOPE_SLACK_BYTES, CONTROL_ITEMS, FS_WATCH_ITEMS, FS_WATCH_TEXT_BYTES, PROXY_BINARY_BYTES, SMALL_TEXT_BYTES } from '../../../src/server/ws/frame-limits.ts';

let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  srv = await startTestServer('shell', { token: TOKEN });
  call = api(srv.url);
  await seedState(srv.url);
  expect((await call('POST', '/v1/sprites', { name: 'box' })).status).toBe(201);
});
afterAll(() => srv.close());

const CONTROL_TEXT = DEFAULT_MAX_HEADER_BYTES + CONTROL_ENVELOPE_SLACK_BYTES;
const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
const opStart = (args: unknown) => `control:${JSON.stringify({ type: 'op.start', op: 'exec', args })}`;

/** Opens `path` on sprite box, sends `send(ws)` once open, resolves with the close and the text messages seen. */
function socketRun(path: string, send: (ws: WebSocket) => void): Promise<{ code: number; reason: string; texts: string[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/v1/sprites/box/${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const texts: string[] = [];
    ws.on('message', (d, binary) => void (binary || texts.push(d.toString())));
    ws.on('open', () => send(ws));
    ws.on('error', (err) => void (ws.readyState === ws.CONNECTING && reject(err)));
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), texts }));
  });
}

/** Whether the shell engine's file exists in sprite box. */
async function exists(path: string): Promise<boolean> {
  return (await call('GET', `/v1/sprites/box/fs/read?path=${encodeURIComponent(path)}`)).status === 200;
}

describe('the control socket bounds each message before it is parsed', () => {
  it('a 20 MB text frame of nested JSON closes 1009 unread; the server goes on', async () => {
    const control = await ControlClient.open(srv.url, 'box');
    const closed = await withHealthProbe(srv.url, '20 MB of nested [ on /control', async () => {
      control.ws.send(`control:${nested(10 * 1024 * 1024)}`);
      return control.closed;
    });
    expect(closed).toEqual({ code: 1009, reason: `text message larger than ${CONTROL_TEXT} bytes` });
    await expectIntact(srv.url);
  });

  it('an op.start whose cmd has 4 million entries closes 1009 and runs nothing', async () => {
    const control = await ControlClient.open(srv.url, 'box');
    const closed = await withHealthProbe(srv.url, 'op.start with 4M cmd entries', async () => {
      control.ws.send(opStart({ cmd: ['sh', '-c', 'echo ran > /tmp/ran4m', ...Array(4_000_000).fill('a')] }));
      return control.closed;
    });
    expect(closed.code).toBe(1009);
    expect(control.frames.some((f) => f.json?.type === 'op.ack')).toBe(false);
    expect(await exists('/tmp/ran4m')).toBe(false);
    await expectIntact(srv.url);
  });

  it('JSON nested deeper than 64 levels, or with more items than allowed, closes 1008 before it is parsed', async () => {
    const deep = await ControlClient.open(srv.url, 'box');
    deep.ws.send(opStart({ cmd: JSON.parse(nested(65)) }));
    expect(await deep.closed).toEqual({ code: 1008, reason: 'JSON nested deeper than 64 levels' });

    const many = await ControlClient.open(srv.url, 'box');
    const frame = opStart({ cmd: ['sh', '-c', 'echo ran > /tmp/ranmany', ...Array(CONTROL_ITEMS).fill('')] });
    expect(frame.length).toBeLessThan(CONTROL_TEXT);
    many.ws.send(frame);
    expect(await many.closed).toEqual({ code: 1008, reason: `JSON with more than ${CONTROL_ITEMS} items` });
    expect(await exists('/tmp/ranmany')).toBe(false);
    await expectIntact(srv.url);
  });

  it('an op.start whose command line is over the HTTP bound (1 MiB) is an op.error and runs nothing; the socket stays usable', async () => {
    const control = await ControlClient.open(srv.url, 'box');
    const long = await control.run({ cmd: ['sh', '-c', 'echo ran > /tmp/ranlong', 'sh', 'x'.repeat(DEFAULT_MAX_HEADER_BYTES)] });
    expect(long.last).toMatchObject({ type: 'op.error', args: { error: expect.stringContaining('command line too long') } });
    expect(await exists('/tmp/ranlong')).toBe(false);
    // Long, under the bound, and each argument under Linux's 128 KiB per argument (execve's E2BIG past it).
    const ok = await control.run({ cmd: ['sh', '-c', 'echo "${#1}${#2}"', 'sh', 'x'.repeat(120_000), 'y'.repeat(120_000)] });
    expect({ stdout: ok.stdout, exitCode: ok.exitCode }).toEqual({ stdout: '120000120000\n', exitCode: 0 });
    control.ws.close();
  });

  it('WebSocket exec carries no longer a command line: its handshake is refused 414 like HTTP exec', async () => {
    const q = execQuery(['sh', '-c', 'true', 'x'.repeat(DEFAULT_MAX_HEADER_BYTES)]);
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/v1/sprites/box/exec?${q}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(414);
    expect((await call('POST', `/v1/sprites/box/exec?${q}`)).status).toBe(414);
  });
});

describe('exec, proxy and fs/watch take messages of the size their protocol needs', () => {
  it('exec: a text message over 4 KiB closes 1009; a deeply nested one 1008; stdin after them is never read', async () => {
    const query = execQuery(['sh', '-c', 'cat > /tmp/execbig'], { stdin: true });
    const big = await socketRun(`exec?${query}`, (ws) => {
      ws.send(JSON.stringify({ type: 'resize', cols: 80, rows: 24, pad: 'x'.repeat(SMALL_TEXT_BYTES) }));
      ws.send(Buffer.from([4]));
    });
    expect({ code: big.code, reason: big.reason }).toEqual({ code: 1009, reason: `text message larger than ${SMALL_TEXT_BYTES} bytes` });
    const deep = await socketRun(`exec?${query}`, (ws) => {
      ws.send(nested(100));
      ws.send(Buffer.from([4]));
    });
    expect({ code: deep.code, reason: deep.reason }).toEqual({ code: 1008, reason: 'JSON nested deeper than 64 levels' });
    await expectIntact(srv.url);
  });

  it('proxy: a binary message over 1 MiB closes 1009 unread', async () => {
    const run = await socketRun('proxy', (ws) => ws.send(Buffer.alloc(PROXY_BINARY_BYTES + 1, 0x61)));
    expect({ code: run.code, reason: run.reason }).toEqual({ code: 1009, reason: `binary message larger than ${PROXY_BINARY_BYTES} bytes` });
  });

  it('fs/watch: a subscribe over 1 MiB closes 1009; one with more items than allowed 1008; nothing is subscribed', async () => {
    const big = await socketRun('fs/watch', (ws) => ws.send(JSON.stringify({ type: 'subscribe', paths: ['/' + 'a'.repeat(FS_WATCH_TEXT_BYTES)] })));
    expect(big).toEqual({ code: 1009, reason: `text message larger than ${FS_WATCH_TEXT_BYTES} bytes`, texts: [] });
    const many = await socketRun('fs/watch', (ws) => ws.send(JSON.stringify({ type: 'subscribe', paths: Array(FS_WATCH_ITEMS).fill('/') })));
    expect(many).toEqual({ code: 1008, reason: `JSON with more than ${FS_WATCH_ITEMS} items`, texts: [] });
    await expectIntact(srv.url);
  });
});
