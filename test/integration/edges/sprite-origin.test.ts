/**
 * Sprite pages on origins of their own, and the API's Origin check, on the shell engine (a sprite serves HTTP through
 * a loopback dial, test/support/loopback-sprite.ts). The default `url` is a port of the sprite's own that answers
 * for that sprite only, enforces `url_settings.auth`, is closed on delete and on server close, comes from
 * `--sprite-ports` when given (busy ports skipped, two servers never sharing one), and comes back after a restart on
 * a data dir. The path form `/s/<name>/` is sandboxed. A browser page of another origin cannot open the API's
 * WebSockets or change anything, with or without a token; clients without `Origin` (the SDKs) are unaffected.
 */
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { api, execQuery, startTestServer, TOKEN } from '../../support/server.ts';
import { loopbackMachines } from '../../support/loopback-sprite.ts';
import { handshake, listening } from '../../support/net-probe.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import type { Deps } from '../../../src/server/context.ts';
import { DataDirStore } from '../../../src/server/store/store.ts';
import { RandomIds } from '../../../src/server/core/ids.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { PATH_FORM_CSP } from '../../../src/server/url/path-form.ts';

const auth = { Authorization: `Bearer ${TOKEN}` };
let upstream: http.Server;
let upstreamPort: number;

beforeAll(async () => {
  // The sprite's server: echoes its path and Host; `/headers` answers with headers that act on a whole origin.
  upstream = http.createServer((req, res) => {
    if (req.url === '/headers') {
      res.writeHead(200, { 'Set-Cookie': 'sid=1; Path=/', 'Service-Worker-Allowed': '/', 'Clear-Site-Data': '"storage"', 'X-Own': 'kept' });
      return void res.end('headers');
    }
    res.end(`path ${req.url} host ${req.headers.host}`);
  });
  const wss = new WebSocketServer({ server: upstream });
  wss.on('connection', (ws, req) => ws.on('message', (d) => ws.send(`${req.url} ${d.toString()}`)));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamPort = (upstream.address() as net.AddressInfo).port;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

/** A spritzer whose sprites all serve `upstream` on 8080; `dialled` records [sprite, port] per dial. */
async function spritzer(overrides: Partial<Deps> = {}) {
  const { machines, clock, dialled } = loopbackMachines((_s, p) => (p === 8080 ? upstreamPort : undefined));
  const srv = await startTestServer('shell', { clock, machines, token: TOKEN, ...overrides });
  return { srv, call: api(srv.url), dialled };
}

/** Status and body of a GET on `url` with extra headers. */
async function get(url: string, headers: Record<string, string> = {}): Promise<[number, string]> {
  const res = await fetch(url, { headers });
  return [res.status, await res.text()];
}

/** Tries to listen on 127.0.0.1:`port`; the server, or undefined when the port is taken. */
async function tryListen(port: number): Promise<net.Server | undefined> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * `n` consecutive ports below the kernel's ephemeral range (where other programs' outgoing connections do not land)
 * of which the first is held here (`busy`) and the others were free when probed.
 */
async function heldRun(n: number): Promise<{ busy: net.Server; from: number }> {
  for (let from = 20000 + (process.pid % 1000) * 10; from < 32000; from += n) {
    const servers = await Promise.all(Array.from({ length: n }, (_, i) => tryListen(from + i)));
    const [first, ...rest] = servers;
    for (const s of rest) if (s) await new Promise((r) => s.close(r));
    if (servers.every((s) => s)) return { busy: first!, from };
    if (first) await new Promise((r) => first.close(r));
  }
  throw new Error('no run of free ports');
}

describe('the sprite url is a port of its own', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  let dialled: Array<[string, number]>;
  let urlA: string;
  let urlB: string;
  beforeAll(async () => {
    ({ srv, call, dialled } = await spritzer());
    urlA = (await call('POST', '/v1/sprites', { name: 'a' })).json.url;
    urlB = (await call('POST', '/v1/sprites', { name: 'b' })).json.url;
  });
  afterAll(() => srv.close());

  it('each sprite gets its own port on spritzer address; create, get and list agree', async () => {
    const own = new URL(srv.url).port;
    expect(urlA).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set([own, new URL(urlA).port, new URL(urlB).port]).size).toBe(3);
    expect((await call('GET', '/v1/sprites/a')).json.url).toBe(urlA);
    expect((await call('GET', '/v1/sprites')).json.sprites.map((s: { url: string }) => s.url)).toEqual([urlA, urlB]);
  });

  it('its port reaches that sprite only, whatever the path or Host: never the API, the inspector or another sprite', async () => {
    const host = new URL(urlA).host;
    for (const path of ['/x?y=1', '/v1/sprites', '/_spritzer/ui/', '/_spritzer/health', '/s/b/x']) {
      dialled.length = 0;
      expect(await get(`${urlA}${path}`, auth)).toEqual([200, `path ${path} host ${host}`]);
      expect(dialled).toEqual([['a', 8080]]);
    }
    dialled.length = 0;
    const viaHost = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: new URL(urlA).port, path: '/', headers: { ...auth, Host: `b.localhost:${new URL(srv.url).port}` } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve(body));
        })
        .on('error', reject);
    });
    expect(viaHost).toMatch(/^path \/ host b\.localhost/);
    expect(dialled).toEqual([['a', 8080]]);
  });

  it('url_settings.auth applies on the port: 401 without the token, open when public; the token is not passed on', async () => {
    const [status, body] = await get(`${urlA}/x`);
    expect([status, JSON.parse(body)]).toEqual([401, { error: 'unauthorized', message: 'Missing or invalid authentication' }]);
    expect((await call('PUT', '/v1/sprites/a', { url_settings: { auth: 'public' } })).status).toBe(200);
    expect((await get(`${urlA}/open`))[0]).toBe(200);
    expect((await call('PUT', '/v1/sprites/a', { url_settings: { auth: 'sprite' } })).status).toBe(200);
    expect((await get(`${urlA}/x`))[0]).toBe(401);
  });

  it("a WebSocket on the port reaches the sprite's WebSocket server", async () => {
    const ws = new WebSocket(`${urlA.replace(/^http/, 'ws')}/chat`, { headers: auth });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send('hi');
    expect(await new Promise<string>((r) => ws.once('message', (d) => r(d.toString())))).toBe('/chat hi');
    ws.close();
  });

  it("the sprite's own headers reach the browser unchanged on its own origin", async () => {
    const res = await fetch(`${urlA}/headers`, { headers: auth });
    expect([res.headers.get('set-cookie'), res.headers.get('service-worker-allowed'), res.headers.get('content-security-policy')]).toEqual(['sid=1; Path=/', '/', null]);
  });

  it("deleting the sprite closes its port (an open WebSocket included)", async () => {
    const url: string = (await call('POST', '/v1/sprites', { name: 'gone' })).json.url;
    const port = Number(new URL(url).port);
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/chat`, { headers: auth });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const closed = new Promise((r) => ws.once('close', r));
    expect(await listening(port)).toBe(true);
    expect((await call('DELETE', '/v1/sprites/gone')).status).toBe(204);
    expect(await listening(port)).toBe(false);
    await closed;
  });
});

describe('sprite ports and the server', () => {
  it('closing the server closes every sprite port', async () => {
    const { srv, call } = await spritzer();
    const ports = [];
    for (const name of ['one', 'two']) ports.push(Number(new URL((await call('POST', '/v1/sprites', { name })).json.url).port));
    for (const p of ports) expect(await listening(p)).toBe(true);
    await srv.close();
    for (const p of ports) expect(await listening(p)).toBe(false);
  });

  it('--sprite-ports: ports come from the range, a busy one is skipped, two servers never share one, a full range falls back to the path form, a delete frees its port', async () => {
    // The range starts at a port held here (by "another program"), so the servers must skip it.
    const { busy, from } = await heldRun(3);
    const range = { from, to: from + 2 };
    const first = await spritzer({ spritePorts: range });
    const second = await spritzer({ spritePorts: range });
    try {
      const p1 = Number(new URL((await first.call('POST', '/v1/sprites', { name: 'x' })).json.url).port);
      const p2 = Number(new URL((await second.call('POST', '/v1/sprites', { name: 'y' })).json.url).port);
      expect(new Set([p1, p2])).toEqual(new Set([from + 1, from + 2]));
      const full = (await first.call('POST', '/v1/sprites', { name: 'z' })).json.url;
      expect(full).toBe(`${first.srv.url}/s/z`);
      expect((await first.call('DELETE', '/v1/sprites/x')).status).toBe(204);
      expect((await first.call('POST', '/v1/sprites', { name: 'w' })).json.url).toBe(`http://127.0.0.1:${p1}`);
    } finally {
      await first.srv.close();
      await second.srv.close();
      await new Promise((r) => busy.close(r));
    }
  });

  it('--sprite-url path keeps the path form on spritzer address, and opens no port', async () => {
    const { srv, call } = await spritzer({ spriteUrlForm: 'path' });
    try {
      expect((await call('POST', '/v1/sprites', { name: 'p' })).json.url).toBe(`${srv.url}/s/p`);
      expect(srv.spritzer.origins).toBeUndefined();
    } finally {
      await srv.close();
    }
  });

  it('a sprite saved in a data dir gets a port again after a restart, and it reaches the sprite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spritzer-origin-'));
    const boot = () => spritzer({ store: DataDirStore.open({ dir, clock: new SystemClock(), logger: pino({ level: 'silent' }) }), ids: new RandomIds() });
    try {
      const before = await boot();
      expect((await before.call('POST', '/v1/sprites', { name: 'kept' })).status).toBe(201);
      await before.srv.close();
      const after = await boot();
      try {
        const url: string = (await after.call('GET', '/v1/sprites/kept')).json.url;
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(await get(`${url}/back`, auth)).toEqual([200, `path /back host ${new URL(url).host}`]);
      } finally {
        await after.srv.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the path form /s/<name>/ on spritzer origin is sandboxed', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    ({ srv } = await spritzer());
    await api(srv.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  it('every answer is a sandboxed document without cookies, worker scope or Clear-Site-Data; other headers stay', async () => {
    const res = await fetch(`${srv.url}/s/box/headers`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(PATH_FORM_CSP);
    expect(PATH_FORM_CSP).toMatch(/^sandbox /);
    expect(PATH_FORM_CSP).not.toContain('allow-same-origin');
    expect([res.headers.get('set-cookie'), res.headers.get('service-worker-allowed'), res.headers.get('clear-site-data')]).toEqual([null, null, null]);
    expect(res.headers.get('x-own')).toBe('kept');
  });

  it('a service worker script is refused 403 in the envelope', async () => {
    const [status, body] = await get(`${srv.url}/s/box/sw.js`, { ...auth, 'Service-Worker': 'script' });
    expect(status).toBe(403);
    expect(JSON.parse(body).error).toBe('forbidden');
  });
});

describe('the Origin check on the API (no --token)', () => {
  let srv: RunningServer;
  let own: string;
  let spritePort: string;
  beforeAll(async () => {
    ({ srv } = await spritzer({ token: undefined }));
    own = srv.url;
    spritePort = (await api(srv.url)('POST', '/v1/sprites', { name: 'victim' })).json.url;
  });
  afterAll(() => srv.close());

  const exec = () => `${own.replace(/^http/, 'ws')}/v1/sprites/victim/exec?${execQuery(['echo', 'hi'])}`;

  it("a WebSocket from a page of another origin is refused 403 in the envelope (a sprite's port, a host-routed sprite, null, another site)", async () => {
    const port = new URL(own).port;
    for (const origin of [spritePort, `http://victim.localhost:${port}`, 'null', 'http://evil.example', `http://127.0.0.1:${Number(port) + 1}`]) {
      const got = await handshake(exec(), { Origin: origin }, ['spritzer-ui', 'spritzer-token.eA']);
      expect(got.status, origin).toBe(403);
      expect((got.body as { error: string }).error).toBe('forbidden');
    }
  });

  it("a WebSocket with no Origin (an SDK) or from spritzer's own page (127.0.0.1, localhost) opens", async () => {
    const port = new URL(own).port;
    expect((await handshake(exec(), { Authorization: 'Bearer any' })).status).toBe(101);
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      expect((await handshake(exec(), { Origin: origin, Authorization: 'Bearer any' })).status, origin).toBe(101);
    }
  });

  it('a state-changing call from another origin is refused 403; reads, and calls without Origin, go on', async () => {
    const post = (headers: Record<string, string>, name: string) =>
      fetch(`${own}/v1/sprites`, { method: 'POST', headers: { Authorization: 'Bearer any', 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ name }) });
    const refused = await post({ Origin: spritePort }, 'r1');
    expect([refused.status, (await refused.json()).error]).toEqual([403, 'forbidden']);
    expect((await post({ 'Sec-Fetch-Site': 'cross-site' }, 'r2')).status).toBe(403);
    expect((await post({ 'Sec-Fetch-Site': 'same-site' }, 'r3')).status).toBe(403);
    expect((await fetch(`${own}/v1/sprites/victim`, { method: 'DELETE', headers: { Authorization: 'Bearer any', Origin: 'http://evil.example' } })).status).toBe(403);
    expect((await fetch(`${own}/v1/sprites`, { headers: { Authorization: 'Bearer any', Origin: spritePort } })).status).toBe(200);
    expect((await post({}, 'sdk')).status).toBe(201);
    expect((await post({ Origin: own, 'Sec-Fetch-Site': 'same-origin' }, 'inspector')).status).toBe(201);
    expect((await api(own)('GET', '/v1/sprites/r1')).status).toBe(404);
  });
});

describe('--allow-origin', () => {
  it('lets the named origins act on the API; * lets any', async () => {
    const named = await spritzer({ allowOrigins: ['http://app.test:3000'] });
    const any = await spritzer({ allowOrigins: ['*'] });
    try {
      const create = (srv: RunningServer, origin: string, name: string) =>
        fetch(`${srv.url}/v1/sprites`, { method: 'POST', headers: { ...auth, Origin: origin, 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });
      expect((await create(named.srv, 'http://app.test:3000', 'a')).status).toBe(201);
      expect((await create(named.srv, 'http://other.test:3000', 'b')).status).toBe(403);
      expect((await create(any.srv, 'http://other.test:3000', 'c')).status).toBe(201);
      const ws = `${named.srv.url.replace(/^http/, 'ws')}/v1/sprites/a/exec?${execQuery(['echo', 'hi'])}`;
      expect((await handshake(ws, { ...auth, Origin: 'http://app.test:3000' })).status).toBe(101);
    } finally {
      await named.srv.close();
      await any.srv.close();
    }
  });
});
