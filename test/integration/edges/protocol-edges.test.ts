/**
 * HTTP and WebSocket protocol edges that real clients send. HEAD answers like GET without a body on every GET route
 * of the spec; an `Upgrade: h2c` request (what `curl --http2` sends) is answered as plain HTTP/1.1; a TTY resize to
 * 0×0 is refused like `rows=0` in the exec query; an invalid absolute-form request line is a 400 in the JSON
 * envelope, not an HTML page. Every attack ends with the check that the server answers and that the sprite and file
 * created first are intact.
 */
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, startTestServer, wsExec, TOKEN, memoryMachines } from '../../support/server.ts';
import { expectIntact, rawExchange, rawRequest, rawUntilClose, seedState, KEPT } from '../../support/attack.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { OPENAPI_PATH } from '../../../src/server/app.ts';
import { createEngine } from '../../../src/server/machines/memory/engines.ts';
import type { EngineProcess, ExecEngine } from '../../../src/server/machines/memory/engine.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';

/** Every `resize` that reached a `tty-probe` process, in order; `waitFor` resolves once one matches. */
const resizes: Array<[number, number]> = [];
let onResize: () => void = () => {};
function waitForResize(cols: number, rows: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (resizes.some(([c, r]) => c === cols && r === rows) ? resolve() : (onResize = check));
    check();
  });
}

/** The shell engine, plus `tty-probe`: a process that records each resize and runs until signalled. */
function probingEngine(inner: ExecEngine): ExecEngine {
  return {
    name: inner.name,
    start(sprite, req, io, opts) {
      if (req.argv[0] !== 'tty-probe') return inner.start(sprite, req, io, opts);
      let finish!: (code: number) => void;
      const proc: EngineProcess = {
        pid: sprite.allocatePid(),
        exit: new Promise<number>((resolve) => (finish = resolve)),
        writeStdin() {},
        endStdin() {},
        resize(cols, rows) {
          resizes.push([cols, rows]);
          onResize();
        },
        signal: () => finish(137),
      };
      return proc;
    },
  };
}

let srv: RunningServer;
let call: ReturnType<typeof api>;
beforeAll(async () => {
  const clock = new SystemClock();
  srv = await startTestServer('shell', { token: TOKEN, machines: memoryMachines(probingEngine(createEngine('shell', { clock, stdinGraceMs: 30 })), clock) });
  call = api(srv.url);
  await seedState(srv.url);
  expect((await call('POST', `/v1/sprites/${KEPT.sprite}/checkpoint`, { comment: 'one' })).status).toBe(200);
});
afterAll(() => srv.close());

/** Concrete paths for the spec's GET templates: the seeded sprite and file, and made-up ids elsewhere. */
function getRoutes(): string[] {
  const doc = parse(readFileSync(OPENAPI_PATH, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const values: Record<string, string> = { name: KEPT.sprite, session_id: '999', checkpoint_id: 'v1', service_name: 'web', task_name: 't' };
  const query: Record<string, string> = { '/fs/read': `?path=${KEPT.path}`, '/fs/list': '?path=/home/sprite' };
  return Object.entries(doc.paths)
    .filter(([, ops]) => 'get' in ops)
    .map(([template]) => {
      const path = template.replace(/\{([^}]+)\}/g, (_m, p: string) => values[p] ?? 'x');
      return path + (Object.entries(query).find(([suffix]) => path.endsWith(suffix))?.[1] ?? '');
    });
}

describe('HEAD on every GET route answers like GET without a body', () => {
  const routes = getRoutes();

  it('a method the route lacks is a 405 in the JSON envelope with an Allow header naming the ones it has', async () => {
    for (const [method, path, allow] of [
      ['PATCH', '/_spritzer/health', 'GET, HEAD'],
      ['PUT', '/v1/sprites', 'GET, HEAD, POST'],
    ] as const) {
      const res = await call(method, path);
      expect(res.status).toBe(405);
      expect(res.json).toMatchObject({ error: 'method not allowed' });
      expect(res.headers.get('allow')?.split(', ').sort().join(', ')).toBe(allow);
    }
  });

  it('the spec has GET routes to try', () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  it.each(routes)('HEAD %s answers GET’s status and headers, and no body', async (path) => {
    const get = await call('GET', path);
    const raw = await rawUntilClose(
      srv.url,
      `HEAD ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`,
    );
    const [head, body] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
    const status = Number(head.split(' ')[1]);
    expect(status).not.toBe(405);
    expect(status).toBe(get.status);
    // …/exec has its own HEAD operation (probeExec: status and Sprite-Version only), tested below.
    if (!path.endsWith('/exec')) expect(head.toLowerCase()).toContain(`content-type: ${get.headers.get('content-type')}`.toLowerCase());
    expect(head).toMatch(/\r\nSprite-Version: /);
    expect(body).toBe('');
  });

  it('HEAD …/exec keeps its own operation (the Go SDK’s version probe)', async () => {
    const res = await fetch(`${srv.url}/v1/sprites/${KEPT.sprite}/exec`, { method: 'HEAD', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('sprite-version')).toMatch(/rc\d+/);
    await expectIntact(srv.url);
  });
});

describe('Upgrade: h2c (curl --http2) is answered as HTTP/1.1', () => {
  const curlHead = (method: string, path: string, extra = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n` +
    `Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n` +
    `Authorization: Bearer ${TOKEN}\r\n${extra}\r\n`;

  it('a GET answers 200 with the sprite, not a 101 or a WebSocket error, and the connection stays usable', async () => {
    const [first, second] = await rawExchange(
      srv.url,
      curlHead('GET', `/v1/sprites/${KEPT.sprite}`) + 'GET /_spritzer/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      { count: 2 },
    );
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toMatchObject({ name: KEPT.sprite });
    expect(first.headers.upgrade).toBeUndefined();
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body)).toMatchObject({ status: 'ok' });
    await expectIntact(srv.url);
  });

  it('a POST with a JSON body is answered with that body read: the sprite is created', async () => {
    const body = JSON.stringify({ name: 'via-h2c' });
    const res = await rawRequest(
      srv.url,
      curlHead('POST', '/v1/sprites', `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`) + body,
    );
    expect(res.status).toBe(201);
    expect((await call('GET', '/v1/sprites/via-h2c')).status).toBe(200);
    await call('DELETE', '/v1/sprites/via-h2c');
    await expectIntact(srv.url);
  });

  it('auth still applies to the replayed request: no token is a 401 in the envelope', async () => {
    const res = await rawRequest(srv.url, curlHead('GET', '/v1/sprites').replace(/Authorization: [^\r]*\r\n/, ''));
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'unauthorized' });
  });
});

describe('a TTY size of 0 is refused in the query and in resize alike', () => {
  it.each(['rows', 'cols'])('%s=0 in the exec query is a 400 before the upgrade', async (key) => {
    const q = execQuery(['tty-probe'], { tty: true, stdin: true, extra: { [key]: '0' } });
    await expect(wsExec(srv.url, `/v1/sprites/${KEPT.sprite}/exec?${q}`)).rejects.toMatchObject({
      status: 400,
      body: expect.stringContaining(`invalid ${key} parameter`),
    });
    await expectIntact(srv.url);
  });

  it('a resize to 0×0 (or 0×5) never reaches the process, like any malformed message; a valid one does', async () => {
    const ws = new WebSocket(
      `${srv.url.replace(/^http/, 'ws')}/v1/sprites/${KEPT.sprite}/exec?${execQuery(['tty-probe'], { tty: true, stdin: true, rows: 24, cols: 80 })}`,
      { headers: { Authorization: `Bearer ${TOKEN}` } },
    );
    await new Promise((resolve, reject) => (ws.once('message', resolve), ws.once('error', reject))); // session_info
    ws.send(JSON.stringify({ type: 'resize', cols: 0, rows: 0 }));
    ws.send(JSON.stringify({ type: 'resize', cols: 0, rows: 5 }));
    ws.send(JSON.stringify({ type: 'resize', cols: 100, rows: 30 }));
    await waitForResize(100, 30); // messages are handled in order: the two before it were seen first
    expect(resizes).toEqual([[100, 30]]);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
    await expectIntact(srv.url);
  });
});

describe('an invalid absolute-form request line (no upgrade) is a JSON 400', () => {
  it.each(['http://[', 'http://[::1/v1/sprites', 'http://%zz/'])('GET %s is a 400 in the JSON envelope, not HTML', async (target) => {
    const res = await rawRequest(srv.url, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).not.toMatch(/<html/i);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_request', message: 'malformed request-target' });
    await expectIntact(srv.url);
  });
});

describe('a valid absolute-form request-target (RFC 9112 §3.2.2)', () => {
  it('is routed by its path, like origin-form', async () => {
    const res = await rawRequest(srv.url, `GET http://elsewhere.example/v1/sprites/${KEPT.sprite} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ name: KEPT.sprite });
    await expectIntact(srv.url);
  });
});

describe("requests Node's HTTP parser refuses", () => {
  it.each([
    ['a NUL in the request target', 'GET /v1/sprites/\x00 HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a bad chunk size', `POST /v1/sprites HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    ['a header line without a colon', 'GET /v1/sprites HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n'],
  ])('%s is a 400 in the JSON envelope, naming the parser error', async (_name, text) => {
    const res = await rawRequest(srv.url, text);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/^malformed HTTP request \(HPE_[A-Z_]+\)$/) });
    await expectIntact(srv.url);
  });
});

describe('WebSocket handshakes that ws itself would refuse', () => {
  it.each([
    ['no Sec-WebSocket-Key', 'GET', { 'Sec-WebSocket-Version': '13' }, 400],
    ['a bad Sec-WebSocket-Version', 'GET', { 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '7' }, 400],
    ['a POST', 'POST', { 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13' }, 405],
  ])('answer %s in the JSON envelope, not an HTML page', async (_name, method, headers, status) => {
    const head = [
      `${method} /v1/sprites/${KEPT.sprite}/exec?cmd=true HTTP/1.1`,
      `Host: 127.0.0.1`,
      `Authorization: Bearer ${TOKEN}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      '',
      '',
    ].join('\r\n');
    const answer = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(srv.url);
      const sock = net.connect(Number(port), '127.0.0.1', () => sock.write(head));
      let text = '';
      sock.on('data', (d) => (text += d));
      sock.on('end', () => resolve(text));
      sock.on('error', reject);
    });
    expect(answer.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: 'invalid_request' });
    await expectIntact(srv.url);
  });
});
