/**
 * Crash containment: no input, and no throw in any request, upgrade or WebSocket listener, takes the server down.
 * Each test attacks a server that holds a sprite and a file, then checks that `/_spritzer/health` answers and that
 * the sprite and the file are intact. Throws are injected through the engine (deps) and through the listeners
 * handed to the containment wrappers, never by patching modules.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, startTestServer, wsExec, TOKEN, memoryMachines } from '../../support/server.ts';
import { captureLogger, expectIntact, rawRequest, seedState, KEPT } from '../../support/attack.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { defaultDeps } from '../../../src/server/server.ts';
import { createApp } from '../../../src/server/app.ts';
import { containRequests, containUpgrades } from '../../../src/server/http/containment.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import type { EngineProcess, ExecEngine, SpriteContext } from '../../../src/server/machines/memory/engine.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { SequentialIds } from '../../../src/server/core/ids.ts';

/** A process that runs until signalled; `failOn` names the call that throws (after doing its work). */
function fakeProcess(sprite: SpriteContext, failOn: 'stdin' | 'signal'): EngineProcess {
  let finish!: (code: number) => void;
  const exit = new Promise<number>((resolve) => (finish = resolve));
  return {
    pid: sprite.allocatePid(),
    exit,
    writeStdin() {
      if (failOn === 'stdin') throw new Error('injected: stdin write failed');
    },
    endStdin() {},
    resize() {},
    signal() {
      finish(137);
      if (failOn === 'signal') throw new Error('injected: signal failed');
    },
  };
}

/**
 * The shell engine, except three commands: `boom-start` throws from `start`, `boom-stdin` starts a process whose
 * stdin write throws, `boom-close` one whose kill (sent when its socket drops) throws.
 */
function faultyEngine(inner: ExecEngine): ExecEngine {
  return {
    name: inner.name,
    start(sprite, req, io, opts) {
      if (req.argv[0] === 'boom-start') throw new Error('injected: engine start failed');
      if (req.argv[0] === 'boom-stdin') return fakeProcess(sprite, 'stdin');
      if (req.argv[0] === 'boom-close') return fakeProcess(sprite, 'signal');
      return inner.start(sprite, req, io, opts);
    },
  };
}

const capture = captureLogger();
let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  const clock = new SystemClock();
  srv = await startTestServer('shell', {
    token: TOKEN,
    logger: capture.logger,
    machines: memoryMachines(faultyEngine(createEngine('shell', { clock, stdinGraceMs: 30 })), clock),
  });
  call = api(srv.url);
  await seedState(srv.url);
});
afterAll(() => srv.close());

describe('an upgrade with an invalid absolute request-target is refused and the server keeps serving', () => {
  it.each([
    ['Upgrade: x', 'GET http://[ HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\n'],
    [
      'Upgrade: websocket',
      'GET http://[ HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    ],
  ])('(%s) is a 400 in the JSON envelope, before auth, and the server keeps serving', async (_name, text) => {
    const res = await rawRequest(srv.url, text);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_request', message: 'malformed request-target' });
    await expectIntact(srv.url);
  });
});

describe('bad percent-encoding in a WebSocket path is refused as on REST', () => {
  const paths = [
    '/v1/sprites/%ff/exec?cmd=true',
    `/v1/sprites/${KEPT.sprite}/exec/%ff`,
    '/v1/sprites/%ff/exec/1',
    '/v1/sprites/%ff/proxy',
    '/v1/sprites/%ff/fs/watch',
    '/v1/sprites/%ff/ports/watch',
    '/v1/sprites/%ff/control',
    '/v1/sprites/%e2%82/exec?cmd=true',
    '/v1/sprites/%zz/exec?cmd=true',
  ];

  it.each(paths)('%s answers the 400 REST answers for the same segment, and the server keeps serving', async (path) => {
    const segment = /\/(%[^/?]*)/.exec(path)![1];
    const rest = await call('GET', `/v1/sprites/${segment}`);
    expect(rest.status).toBe(400);
    const err = await wsExec(srv.url, path).then(
      () => expect.unreachable('the handshake must be refused'),
      (e: { status: number; body: string; headers: Record<string, string> }) => e,
    );
    expect(err.status).toBe(400);
    expect(err.headers['content-type']).toContain('application/json');
    expect(JSON.parse(err.body)).toEqual(rest.json);
    expect(rest.json).toMatchObject({ error: 'invalid_request', errors: [expect.stringContaining(segment)] });
    await expectIntact(srv.url);
  });
});

describe('a throw in any layer is contained where it happens', () => {
  it('an engine whose start throws: the exec socket closes 1011, the error is logged, the next exec runs', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/${KEPT.sprite}/exec?${execQuery(['boom-start'])}`);
    expect(rec.closeCode).toBe(1011);
    expect(rec.exitCode).toBeNull();
    const logged = await capture.waitFor((e) => e.msg === 'channel handler failed');
    expect(logged.err.message).toBe('injected: engine start failed');
    expect(logged.url).toContain('boom-start');
    const ok = await wsExec(srv.url, `/v1/sprites/${KEPT.sprite}/exec?${execQuery(['echo', 'still here'])}`);
    expect({ stdout: ok.stdout, exit: ok.exitCode }).toEqual({ stdout: 'still here\n', exit: 0 });
    await expectIntact(srv.url);
  });

  it('a channel message handler that throws (TTY stdin write): the socket closes 1011 and the server keeps serving', async () => {
    const rec = await wsExec(srv.url, `/v1/sprites/${KEPT.sprite}/exec?${execQuery(['boom-stdin'], { tty: true, stdin: true })}`, (ws) =>
      ws.send(Buffer.from('typed'), { binary: true }),
    );
    expect(rec.closeCode).toBe(1011);
    const logged = await capture.waitFor((e) => e.msg?.startsWith('WebSocket listener failed') && e.event === 'message');
    expect(logged.err.message).toBe('injected: stdin write failed');
    await expectIntact(srv.url);
  });

  it('a frame over the channel\'s size is the client\'s mistake: logged at info level without a stack, not as a failure', async () => {
    const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/v1/sprites/${KEPT.sprite}/control`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send('x'.repeat(4 * 1024 * 1024));
    expect(await closed).toBe(1009);
    const logged = await capture.waitFor((e) => e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH');
    expect(logged).toMatchObject({ level: 30, msg: 'WebSocket client broke the protocol; the socket is closed' });
    expect(logged.err).toBeUndefined();
    expect(capture.entries.filter((e) => e.level >= 50 && /Max payload/.test(JSON.stringify(e)))).toEqual([]);
    await expectIntact(srv.url);
  });

  /** Opens an exec socket for `argv`, waits for session_info, then closes it from the client side. */
  async function openAndDrop(argv: string[], extra: Record<string, string>): Promise<void> {
    const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/v1/sprites/${KEPT.sprite}/exec?${execQuery(argv, { extra })}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    await new Promise((resolve, reject) => (ws.once('message', resolve), ws.once('error', reject))); // session_info
    ws.close();
  }

  it('a channel close handler that throws (the kill on disconnect) is logged and contained', async () => {
    await openAndDrop(['boom-close'], {}); // a non-TTY command's default: killed in the close handler itself
    const logged = await capture.waitFor((e) => e.msg?.startsWith('WebSocket listener failed') && e.event === 'close');
    expect(logged.err.message).toBe('injected: signal failed');
    await expectIntact(srv.url);
  });

  it('a timer callback that throws (the kill after max_run_after_disconnect) is logged and contained', async () => {
    const before = capture.entries.filter((e) => e.msg === 'timer callback failed').length;
    await openAndDrop(['boom-close'], { max_run_after_disconnect: '5ms' });
    await capture.waitFor((e) => e.msg === 'timer callback failed' && capture.entries.filter((x) => x.msg === e.msg).length > before);
    expect(capture.entries.filter((e) => e.msg === 'timer callback failed').at(-1)!.err.message).toBe('injected: signal failed');
    await expectIntact(srv.url);
  });
});

describe('a throw in the request or upgrade listener is contained', () => {
  const own = captureLogger();
  let base: string;
  let server: http.Server;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const clock = new SystemClock();
    const deps = defaultDeps({ clock, ids: new SequentialIds(), logger: own.logger, machines: memoryMachines(createEngine('shell', { clock, stdinGraceMs: 30 }), clock) });
    const spritzer = createApp(deps);
    // The listeners a server could have, each failing on one path; the wrappers are the ones startServer uses.
    server = http.createServer(
      containRequests((req, res) => {
        if (req.url === '/boom/throw') throw new Error('injected: request listener threw');
        if (req.url === '/boom/reject') return Promise.reject(new Error('injected: request listener rejected'));
        if (req.url === '/boom/after-headers') {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.write('partial');
          throw new Error('injected: threw after the headers');
        }
        return spritzer.app(req, res);
      }, own.logger),
    );
    server.on(
      'upgrade',
      containUpgrades(
        server,
        (req, socket, head) => {
          if (req.url === '/boom/throw') throw new Error('injected: upgrade listener threw');
          if (req.url === '/boom/reject') return Promise.reject(new Error('injected: upgrade listener rejected'));
          return spritzer.upgrade(req, socket, head);
        },
        own.logger,
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await spritzer.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
    await seedState(base);
  });
  afterAll(() => close());

  it.each([
    ['/boom/throw', 'injected: request listener threw'],
    ['/boom/reject', 'injected: request listener rejected'],
  ])('a request listener failure on %s answers 500 in the envelope and is logged with the URL', async (path, message) => {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'internal_error', message: 'internal server error' });
    const logged = await own.waitFor((e) => e.msg === 'request listener failed' && e.url === path);
    expect(logged.err.message).toBe(message);
    await expectIntact(base);
  });

  it('a request listener that throws after the headers went out ends that connection only', async () => {
    await expect(fetch(`${base}/boom/after-headers`).then((r) => r.text())).rejects.toThrow();
    await own.waitFor((e) => e.msg === 'request listener failed' && e.url === '/boom/after-headers');
    await expectIntact(base);
  });

  it.each([
    ['/boom/throw', 'injected: upgrade listener threw'],
    ['/boom/reject', 'injected: upgrade listener rejected'],
  ])('an upgrade listener failure on %s refuses the handshake with 500 in the envelope', async (path, message) => {
    const err = await wsExec(base, path).then(
      () => expect.unreachable('the handshake must be refused'),
      (e: { status: number; body: string }) => e,
    );
    expect(err.status).toBe(500);
    expect(JSON.parse(err.body)).toEqual({ error: 'internal_error', message: 'internal server error' });
    const logged = await own.waitFor((e) => e.msg === 'upgrade listener failed' && e.url === path);
    expect(logged.err.message).toBe(message);
    await expectIntact(base);
    const ok = await wsExec(base, `/v1/sprites/${KEPT.sprite}/exec?${execQuery(['echo', 'ok'])}`);
    expect(ok.stdout).toBe('ok\n');
  });
});
