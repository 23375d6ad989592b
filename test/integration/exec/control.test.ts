/**
 * The control socket (docs/wire-reference.md §5, docs/wire.md "The control socket") end to end: an OpenAI-Agents-style
 * sequence of ops over one pooled socket, dropped sockets, reuse for 100 ops, 50 sockets on one sprite, sessions
 * listed and killed through the API, the session cap, the idle timeout, and proxy over control in both dialects
 * (through a loopback `connect` hook, as test/integration/exec/proxy.test.ts does).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ControlClient } from '../../support/control-client.ts';
import { api, memoryMachines, startTestServer, ENGINES, SANDBOX_RUN, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { DEFAULT_LIMITS } from '../../../src/server/core/limits.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import type { ExecEngine } from '../../../src/server/machines/memory/engine.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';

const EXEC_ENGINES = ENGINES.filter((e) => e !== 'interpreter');
/**
 * The agents' workspace. Every engine runs commands as `sprite` (uid 1001), which cannot create `/workspace` in a
 * root-owned `/` (a question of the sprite's filesystem, not of the control socket), so the sequence uses a
 * directory it may create.
 */
const WORKSPACE = '/home/sprite/workspace';

describe.each(ENGINES)('control socket basics (%s engine)', (engine) => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer(engine, { token: TOKEN });
    await api(srv.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  it('runs an exec op and answers op.complete with its exit code on a socket that stays open', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    const r = await c.run({ cmd: ['echo', 'hi'], stdin: 'false' });
    expect(r.frames[0].json).toEqual({ type: 'op.ack', op: 'exec' });
    expect(r.stdout).toBe('hi\n');
    expect(r.last).toEqual({ type: 'op.complete', op: 'exec', args: { exitCode: 0 } });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });
});

describe.each(EXEC_ENGINES)('control socket exec (%s engine)', (engine) => {
  let srv: RunningServer;
  const call = () => api(srv.url);
  beforeAll(async () => {
    srv = await startTestServer(engine, { token: TOKEN });
    await call()('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  it('runs an OpenAI-Agents-style sequence over one pooled socket', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    // 1. workspace setup: stdin=false, no dir
    const mk = await c.run({ cmd: ['mkdir', '-p', '--', WORKSPACE], stdin: 'false' });
    expect(mk.exitCode).toBe(0);
    // 2. execs in the workspace
    const pwd = await c.run({ cmd: ['sh', '-c', 'pwd; echo made > made.txt; cat made.txt'], dir: WORKSPACE, stdin: 'false' });
    expect(pwd).toMatchObject({ stdout: `${WORKSPACE}\nmade\n`, exitCode: 0 });
    // 3. a command past its timeout, killed by a signal frame
    const from = c.start({ cmd: ['sleep', '30'], dir: WORKSPACE, stdin: 'false' });
    await c.waitFor((f) => f.json?.type === 'session_info', from);
    c.ws.send(JSON.stringify({ type: 'signal', signal: 'KILL' }));
    const killed = await c.end(from);
    expect(killed.exitCode).toBe(137);
    expect(killed.frames.find((f) => f.binary && f.data[0] === 3)?.data[1]).toBe(137);
    // 4. a TTY op with rows, cols and stdin
    const ttyFrom = c.start({ cmd: ['sh', '-c', 'stty size; read line; echo "got $line"'], tty: 'true', rows: '24', cols: '80', stdin: 'true' });
    await c.waitFor((f) => f.json?.type === 'session_info', ttyFrom);
    c.ws.send(Buffer.from('answer\r'), { binary: true }); // typed at once: the shell engine reads stdin before it runs
    const tty = await c.end(ttyFrom);
    // On a real TTY the typed line may be echoed before `stty size` runs; the size still comes before the answer.
    expect(tty.stdout).toMatch(/24 80\r\n[\s\S]*got answer/);
    expect(tty.frames.at(-2)?.json).toEqual({ type: 'exit', exit_code: 0 });
    expect(tty.exitCode).toBe(0);
    c.ws.close();
  });

  it('takes resize and signal as binary JSON frames (the JS SDK OpConn form)', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    const from = c.start({ cmd: ['sh', '-c', 'stty size; sleep 1; stty size'], tty: 'true', stdin: 'true' });
    await c.waitFor((f) => f.json?.type === 'session_info', from);
    c.ws.send(Buffer.from(JSON.stringify({ type: 'resize', cols: 100, rows: 30 })), { binary: true });
    const r = await c.end(from);
    expect(r.stdout.trimEnd().split('\r\n').at(-1)).toBe('30 100');
    const sleeper = c.start({ cmd: ['sleep', '30'] });
    await c.waitFor((f) => f.json?.type === 'session_info', sleeper);
    c.ws.send(Buffer.from(JSON.stringify({ type: 'signal', signal: 'SIGTERM' })), { binary: true });
    expect((await c.end(sleeper)).exitCode).toBe(143);
    c.ws.close();
  });

  it('runs 100 sequential ops on one socket', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    for (let i = 0; i < 100; i++) {
      const r = await c.run({ cmd: ['echo', `op-${i}`], stdin: 'true' });
      expect(r.stdout, `op ${i}`).toBe(`op-${i}\n`);
      expect(r.exitCode).toBe(0);
    }
    expect(c.frames.filter((f) => f.json?.type === 'op.error')).toEqual([]);
    c.ws.close();
  }, 60_000);

  it('serves 50 sockets on one sprite at once', async () => {
    const clients = await Promise.all(Array.from({ length: 50 }, () => ControlClient.open(srv.url, 'box')));
    const results = await Promise.all(clients.map((c, i) => c.run({ cmd: ['sh', '-c', `echo sock-${i}`] })));
    expect(results.map((r) => r.stdout)).toEqual(Array.from({ length: 50 }, (_, i) => `sock-${i}\n`));
    for (const c of clients) c.ws.close();
    await Promise.all(clients.map((c) => c.closed));
  }, 60_000);

  it('a dropped socket kills a non-detachable op; a TTY op lives on, is listed, and dies through the kill API', async () => {
    const sessions = async () => ((await call()('GET', '/v1/sprites/box/exec')).json.sessions as Array<{ id: string }>).map((s) => String(s.id));
    const plain = await ControlClient.open(srv.url, 'box');
    const from = plain.start({ cmd: ['sleep', '300'] });
    const plainId = (await plain.waitFor((f) => f.json?.type === 'session_info', from)).json.session_id;
    expect(await sessions()).toContain(plainId);
    plain.ws.terminate();
    await expect.poll(sessions, { timeout: 10_000 }).not.toContain(plainId);

    const tty = await ControlClient.open(srv.url, 'box');
    const ttyFrom = tty.start({ cmd: ['sleep', '300'], tty: 'true', stdin: 'true' });
    const ttyId = (await tty.waitFor((f) => f.json?.type === 'session_info', ttyFrom)).json.session_id;
    tty.ws.terminate();
    await tty.closed;
    expect(await sessions()).toContain(ttyId);
    const kill = await call()('POST', `/v1/sprites/box/exec/${ttyId}/kill?signal=KILL&timeout=5s`);
    expect(kill.status).toBe(200);
    expect(kill.text).toContain('"complete"');
    expect(await sessions()).not.toContain(ttyId);
  });

  it('an op started with max_run_after_disconnect=0 outlives a dropped socket: listed, not active, killed through the API', async () => {
    const listed = async (id: string) => ((await call()('GET', '/v1/sprites/box/exec')).json.sessions as Array<{ id: string; is_active: boolean }>).find((s) => s.id === id);
    const c = await ControlClient.open(srv.url, 'box');
    const from = c.start({ cmd: ['sleep', '300'], max_run_after_disconnect: '0' });
    const id = String((await c.waitFor((f) => f.json?.type === 'session_info', from)).json.session_id);
    c.ws.terminate();
    await c.closed;
    await expect.poll(async () => (await listed(id))?.is_active, { timeout: 10_000 }).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(await listed(id)).toMatchObject({ id, is_active: false });
    const kill = await call()('POST', `/v1/sprites/box/exec/${id}/kill?signal=KILL&timeout=5s`);
    expect(kill.text).toContain('"complete"');
    expect(await listed(id)).toBeUndefined();
  });

  it('an op killed through the kill API ends with op.complete and its exit code', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    const from = c.start({ cmd: ['sleep', '300'] });
    const id = (await c.waitFor((f) => f.json?.type === 'session_info', from)).json.session_id;
    const kill = await call()('POST', `/v1/sprites/box/exec/${id}/kill?signal=TERM&timeout=5s`);
    expect(kill.status).toBe(200);
    const r = await c.end(from);
    expect(r.exitCode).toBe(143);
    expect((await c.run({ cmd: ['echo', 'after'] })).stdout).toBe('after\n');
    c.ws.close();
  });
});

describe('control socket limits (shell engine)', () => {
  let srv: RunningServer;
  let idle: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN, limits: { ...DEFAULT_LIMITS, sessionsMax: 1 } });
    idle = await startTestServer('shell', { token: TOKEN, limits: { ...DEFAULT_LIMITS, controlIdleMs: 300 } });
    await api(srv.url)('POST', '/v1/sprites', { name: 'box' });
    await api(idle.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(async () => {
    await srv.close();
    await idle.close();
  });

  it('applies the per-sprite session cap to control ops: op.error, and the socket stays usable', async () => {
    const a = await ControlClient.open(srv.url, 'box');
    const b = await ControlClient.open(srv.url, 'box');
    const running = a.start({ cmd: ['sleep', '1'] });
    await a.waitFor((f) => f.json?.type === 'session_info', running);
    const refused = await b.run({ cmd: ['echo', 'two'] });
    expect(refused.last).toMatchObject({ type: 'op.error', args: { code: 'op.failed', error: expect.stringContaining('too many exec sessions') } });
    expect((await a.end(running)).exitCode).toBe(0);
    expect((await b.run({ cmd: ['echo', 'now'] })).stdout).toBe('now\n');
    a.ws.close();
    b.ws.close();
  });

  it('closes a socket left idle past controlIdleMs with 1000 "idle timeout", but never while an op runs', async () => {
    const c = await ControlClient.open(idle.url, 'box');
    const r = await c.run({ cmd: ['sleep', '0.6'] }); // longer than the idle limit: the op is not cut
    expect(r.exitCode).toBe(0);
    expect(await c.closed).toEqual({ code: 1000, reason: 'idle timeout' });
  });

  it('refuses an attach to a session that does not exist with op.error not_found', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    const r = await c.run({ id: '999999', stdin: 'true' });
    expect(r.last).toMatchObject({ type: 'op.error', args: { code: 'op.not_found', error: 'session not found: 999999' } });
    c.ws.close();
  });
});

describe.skipIf(SANDBOX_RUN)('proxy over the control socket (loopback connect hook)', () => {
  let srv: RunningServer;
  let echo: net.Server;
  let echoPort: number;
  const upstreams: net.Socket[] = [];

  beforeAll(async () => {
    echo = net.createServer((socket) => {
      upstreams.push(socket);
      socket.on('data', (chunk) => (chunk.toString() === 'bye' ? socket.end() : socket.write(chunk)));
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    echoPort = (echo.address() as net.AddressInfo).port;
    const clock = new SystemClock();
    const engine: ExecEngine = {
      ...createEngine('shell', { clock }),
      connect: (_sprite, _host, port) =>
        new Promise((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1');
          socket.once('connect', () => resolve(socket));
          socket.once('error', reject);
        }),
    };
    srv = await startTestServer('shell', { token: TOKEN, machines: memoryMachines(engine, clock) });
    await api(srv.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(async () => {
    await srv.close();
    await new Promise((r) => echo.close(r));
  });

  const bytesFrom = (c: ControlClient, from: number) => Buffer.concat(c.frames.slice(from).filter((f) => f.binary).map((f) => f.data)).toString();

  it('sprites-go dialect: bare start, connected, relay, release, then the socket runs an exec', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    c.ws.send(JSON.stringify({ type: 'start', operation: 'proxy', params: { host: 'localhost', port: echoPort, keep_alive: true } }));
    const connected = await c.waitFor((f) => f.json?.status === 'connected');
    expect(connected.json).toEqual({ status: 'connected', target: `localhost:${echoPort}` });
    c.ws.send(Buffer.from('ping'), { binary: true });
    await c.waitFor(() => bytesFrom(c, 0) === 'ping');
    const upstream = upstreams.at(-1)!;
    const upstreamClosed = new Promise((r) => upstream.once('close', r));
    c.ws.send(JSON.stringify({ type: 'release' }));
    await upstreamClosed;
    expect((await c.run({ cmd: ['echo', 'reused'] })).stdout).toBe('reused\n');
    c.ws.close();
  });

  it('names an IPv6 target in brackets, as Go\'s net.JoinHostPort does, in both dialects', async () => {
    const bare = await ControlClient.open(srv.url, 'box');
    bare.ws.send(JSON.stringify({ type: 'start', operation: 'proxy', params: { host: '::1', port: echoPort } }));
    expect((await bare.waitFor((f) => f.json?.status === 'connected')).json).toEqual({ status: 'connected', target: `[::1]:${echoPort}` });
    bare.ws.close();
    const envelope = await ControlClient.open(srv.url, 'box');
    const from = envelope.start({ host: '::1', port: String(echoPort) }, 'proxy');
    expect((await envelope.waitFor((f) => f.json?.status === 'connected', from)).json).toEqual({ status: 'connected', target: `[::1]:${echoPort}` });
    envelope.ws.close();
    await Promise.all([bare.closed, envelope.closed]);
  });

  it('sprites-go dialect: the upstream ending closes the socket 1001 "upstream closed", as /proxy does', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    c.ws.send(JSON.stringify({ type: 'start', operation: 'proxy', params: { port: echoPort } }));
    await c.waitFor((f) => f.json?.status === 'connected');
    c.ws.send(Buffer.from('bye'), { binary: true });
    expect(await c.closed).toEqual({ code: 1001, reason: 'upstream closed' });
  });

  it('envelope dialect: op.ack, connected, relay; the upstream ending is op.complete and the socket is reused', async () => {
    const c = await ControlClient.open(srv.url, 'box');
    const from = c.start({ host: 'localhost', port: String(echoPort) }, 'proxy');
    await c.waitFor((f) => f.json?.status === 'connected', from);
    expect(c.frames[from].json).toEqual({ type: 'op.ack', op: 'proxy' });
    c.ws.send(Buffer.from('abc'), { binary: true });
    await c.waitFor(() => bytesFrom(c, from) === 'abc', from);
    c.ws.send(Buffer.from('bye'), { binary: true });
    const done = await c.end(from);
    expect(done.last).toEqual({ type: 'op.complete', op: 'proxy', args: { exitCode: 0 } });
    expect((await c.run({ cmd: ['echo', 'next'] })).stdout).toBe('next\n');
    c.ws.close();
  });

  it('a dial failure: op.error for the envelope, close 1011 for the bare start; a bad port closes 1003', async () => {
    const closedPort = await new Promise<number>((r) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => r(p));
      });
    });
    const c = await ControlClient.open(srv.url, 'box');
    const r = await c.end(c.start({ port: String(closedPort) }, 'proxy'));
    expect(r.last).toMatchObject({ type: 'op.error', args: { code: 'op.failed', error: expect.stringMatching(/^Failed to connect to target: /) } });
    const bad = await c.end(c.start({ port: '0' }, 'proxy'));
    expect(bad.last).toMatchObject({ type: 'op.error', args: { error: 'Invalid port number' } });
    c.ws.send(JSON.stringify({ type: 'start', operation: 'proxy', params: { port: closedPort } }));
    expect((await c.closed).code).toBe(1011);
    const d = await ControlClient.open(srv.url, 'box');
    d.ws.send(JSON.stringify({ type: 'start', operation: 'proxy', params: { port: 70000 } }));
    expect(await d.closed).toEqual({ code: 1003, reason: 'Invalid port number' });
  });
});
