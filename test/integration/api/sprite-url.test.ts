/**
 * The sprite URL (docs/wire-reference.md §11) on the in-memory engines: `/s/<name>/…` and
 * `Host: <name>.localhost` with `url_settings.auth`, 404 for an unknown sprite, 502 JSON when nothing listens. The
 * relay itself runs against a real HTTP + WebSocket server on 127.0.0.1 through the shell engine with a `connect`
 * hook that dials loopback (what a real engine's connect does inside the sprite): streaming both ways is checked by
 * arrival order (the server waits for the client to have seen the first chunk before it writes the second).
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { api, startTestServer, TOKEN } from '../../support/server.ts';
import { loopbackMachines } from '../../support/loopback-sprite.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { getWithEveryClient, removeBuiltClients, reportSkips } from '../../support/url-clients.ts';

const auth = { Authorization: `Bearer ${TOKEN}` };

/** A raw HTTP/1.1 request with a chosen Host; resolves with status, headers and body. */
function request(port: number, path: string, host: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const r = http.request({ host: '127.0.0.1', port, path, method, headers: { Host: host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    r.on('error', reject);
    r.end();
  });
}

describe('sprite URL on the shell engine (nothing listens)', () => {
  let srv: RunningServer;
  let port: number;
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN });
    port = Number(new URL(srv.url).port);
    await api(srv.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(() => srv.close());

  it('502 JSON names the port when nothing listens, path- and host-routed', async () => {
    const res = await fetch(`${srv.url}/s/box/`, { headers: auth });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: 'bad_gateway', message: 'nothing is listening on port 8080 in sprite box' });
    expect((await request(port, '/', `box.localhost:${port}`, auth)).status).toBe(502);
  });

  it('without the token: 401 in the real envelope, for a known and an unknown sprite alike', async () => {
    for (const url of [`${srv.url}/s/box/x`, `${srv.url}/s/nope/x`]) {
      const res = await fetch(url);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'unauthorized', message: 'Missing or invalid authentication' });
    }
  });

  it('an unknown sprite with the token is 404; the API itself still answers on its own host', async () => {
    const res = await fetch(`${srv.url}/s/nope/x`, { headers: auth });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'sprite not found' });
    expect((await request(port, '/v1/sprites/box', `localhost:${port}`, auth)).status).toBe(200);
  });

  it('a request counts as activity: the sprite is running afterwards', async () => {
    await fetch(`${srv.url}/s/box/`, { headers: auth });
    expect((await api(srv.url)('GET', '/v1/sprites/box')).json.status).toBe('running');
  });
});

describe('sprite URL relay (loopback connect hook)', () => {
  let srv: RunningServer;
  let port: number;
  let upstream: http.Server;
  let upstreamPort: number;
  let dialled: Array<[string, number]> = [];
  /** Resolved by the test when the client has seen the first streamed chunk. */
  let clientSawFirst: () => void = () => undefined;
  /** Resolved by the upstream when it has received the first uploaded chunk. */
  let serverGotFirst: () => void = () => undefined;
  const seen: { headers?: http.IncomingHttpHeaders; upgrade?: http.IncomingHttpHeaders } = {};

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      seen.headers = req.headers;
      if (req.url === '/stream') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('first\n');
        new Promise<void>((r) => (clientSawFirst = r)).then(() => res.end('second\n'));
      } else if (req.url === '/upload') {
        let got = '';
        req.on('data', (c: Buffer) => {
          got += c.toString();
          if (got === 'part1') serverGotFirst();
        });
        req.on('end', () => res.end(`got ${got}`));
      } else {
        res.end(`path ${req.url}`);
      }
    });
    const wss = new WebSocketServer({ server: upstream });
    wss.on('connection', (ws, req) => {
      seen.upgrade = req.headers;
      ws.on('message', (d) => ws.send(`${req.url} ${d.toString()}`));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    upstreamPort = (upstream.address() as net.AddressInfo).port;
    const loop = loopbackMachines((_sprite, p) => (p === 8080 ? upstreamPort : undefined));
    dialled = loop.dialled;
    srv = await startTestServer('shell', { token: TOKEN, machines: loop.machines, clock: loop.clock });
    port = Number(new URL(srv.url).port);
    await api(srv.url)('POST', '/v1/sprites', { name: 'box' });
  });
  afterAll(async () => {
    await srv.close();
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
  });

  it('path-routed: the path and query inside the sprite; the bearer token is not passed on', async () => {
    const res = await fetch(`${srv.url}/s/box/a/b?c=1`, { headers: auth });
    expect(await res.text()).toBe('path /a/b?c=1');
    expect(seen.headers?.authorization).toBeUndefined();
    expect(dialled.at(-1)?.[1]).toBe(8080);
  });

  it('host-routed: the Host reaches the sprite unchanged', async () => {
    const res = await request(port, '/x', `box.localhost:${port}`, auth);
    expect([res.status, res.body]).toEqual([200, 'path /x']);
    expect(seen.headers?.host).toBe(`box.localhost:${port}`);
  });

  it("a browser on the sprite's host gets the sprite's own / and /_spritzer/ui/, not the inspector", async () => {
    const html = { ...auth, Accept: 'text/html,application/xhtml+xml' };
    const root = await request(port, '/', `box.localhost:${port}`, html);
    expect([root.status, root.body]).toEqual([200, 'path /']);
    const ui = await request(port, '/_spritzer/ui/', `box.localhost:${port}`, html);
    expect([ui.status, ui.body]).toEqual([200, 'path /_spritzer/ui/']);
    // spritzer's own host still sends a browser to the inspector
    const own = await request(port, '/', `localhost:${port}`, html);
    expect([own.status, own.headers.location]).toEqual([302, '/_spritzer/ui/']);
  });

  it('streams the response: the first chunk arrives before the server writes the second', async () => {
    const res = await fetch(`${srv.url}/s/box/stream`, { headers: auth });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe('first\n');
    clientSawFirst();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += Buffer.from(r.value).toString();
    expect(rest).toBe('second\n');
  });

  it('streams the request body: the server has the first part before the client sends the second', async () => {
    const gotFirst = new Promise<void>((r) => (serverGotFirst = r));
    const answer = new Promise<string>((resolve, reject) => {
      const r = http.request({ host: '127.0.0.1', port, path: '/s/box/upload', method: 'POST', headers: auth }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(body));
      });
      r.on('error', reject);
      r.write('part1');
      void gotFirst.then(() => r.end('+part2'));
    });
    expect(await answer).toBe('got part1+part2');
  });

  it('a WebSocket goes through both URL forms; without the token the handshake is 401', async () => {
    for (const [url, headers] of [
      [`${srv.url.replace('http', 'ws')}/s/box/chat?room=1`, auth],
      [`ws://127.0.0.1:${port}/chat`, { ...auth, Host: `box.localhost:${port}` }],
    ] as const) {
      const ws = new WebSocket(url, { headers });
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      ws.send('hi');
      const reply = await new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
      expect(reply).toMatch(/^\/chat(\?room=1)? hi$/);
      ws.close();
    }
    const anon = new WebSocket(`${srv.url.replace('http', 'ws')}/s/box/chat`);
    const res = await new Promise<http.IncomingMessage>((r) => anon.once('unexpected-response', (_q, m) => r(m)));
    expect(res.statusCode).toBe(401);
  });

  it('url_settings.auth public opens the URL without a token', async () => {
    const call = api(srv.url);
    expect((await fetch(`${srv.url}/s/box/open`)).status).toBe(401);
    await call('PUT', '/v1/sprites/box', { url_settings: { auth: 'public' } });
    const res = await fetch(`${srv.url}/s/box/open`);
    expect([res.status, await res.text()]).toEqual([200, 'path /open']);
    await call('PUT', '/v1/sprites/box', { url_settings: { auth: 'sprite' } });
  });

  it("spritzer's credentials never reach the sprite: its token and Proxy-Authorization are dropped, the client's other headers kept", async () => {
    await api(srv.url)('POST', '/v1/sprites', { name: 'pub', url_settings: { auth: 'public' } });
    const theirs = { 'Proxy-Authorization': 'Basic cHJveHk6c2VjcmV0', 'X-Client': 'kept', Cookie: 'session=1' };
    const forwarded = (h?: http.IncomingHttpHeaders) => ({ authorization: h?.authorization, 'proxy-authorization': h?.['proxy-authorization'], 'x-client': h?.['x-client'], cookie: h?.cookie });
    const without = { authorization: undefined, 'proxy-authorization': undefined, 'x-client': 'kept', cookie: 'session=1' };
    // A public sprite's URL, host- and path-routed, with spritzer's token: the token stays with spritzer.
    await request(port, '/h', `pub.localhost:${port}`, { ...auth, ...theirs });
    expect(forwarded(seen.headers)).toEqual(without);
    await fetch(`${srv.url}/s/pub/h`, { headers: { ...auth, ...theirs } });
    expect(forwarded(seen.headers)).toEqual(without);
    // A sprite-auth URL: the token opened it and stays with spritzer, so does Proxy-Authorization.
    await request(port, '/h', `box.localhost:${port}`, { ...auth, ...theirs });
    expect(forwarded(seen.headers)).toEqual(without);
    // The client's own credentials for the sprite's app pass.
    await request(port, '/h', `pub.localhost:${port}`, { Authorization: 'Basic dXNlcjpwdw==', 'X-Client': 'kept' });
    expect(seen.headers?.authorization).toBe('Basic dXNlcjpwdw==');
    // A WebSocket upgrade through a public URL alike.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/chat`, { headers: { ...auth, ...theirs, Host: `pub.localhost:${port}` } });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.close();
    expect(forwarded(seen.upgrade)).toEqual(without);
  });

  it('the `url` of create, get and list reaches the sprite from curl, Python urllib/requests/httpx, Node fetch and Go net/http', async () => {
    const call = api(srv.url);
    const created = await call('POST', '/v1/sprites', { name: 'reach' });
    const url: string = created.json.url;
    // A port of its own on spritzer's address (test/integration/edges/sprite-origin.test.ts has the rest of that form).
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(url).port).not.toBe(String(port));
    expect((await call('GET', '/v1/sprites/reach')).json.url).toBe(url);
    expect((await call('GET', '/v1/sprites')).json.sprites.find((s: { name: string }) => s.name === 'reach').url).toBe(url);
    const withToken = reportSkips(await getWithEveryClient(`${url}/index.html?x=1`, TOKEN), 'sprite url clients');
    expect(withToken.map((r) => [r.client, r.status, r.body])).toEqual(withToken.map((r) => [r.client, 200, 'path /index.html?x=1']));
    expect(withToken.map((r) => r.client)).toEqual(expect.arrayContaining(['curl', 'node fetch']));
    // auth `sprite`: without the token every client gets the 401 envelope; `public`: every client gets in.
    const anon = reportSkips(await getWithEveryClient(`${url}/index.html`), 'sprite url clients');
    expect(anon.map((r) => [r.client, r.status, JSON.parse(r.body).error])).toEqual(anon.map((r) => [r.client, 401, 'unauthorized']));
    await call('PUT', '/v1/sprites/reach', { url_settings: { auth: 'public' } });
    const open = reportSkips(await getWithEveryClient(`${url}/open`), 'sprite url clients');
    expect(open.map((r) => [r.client, r.status, r.body])).toEqual(open.map((r) => [r.client, 200, 'path /open']));
    // A WebSocket to `<url>/ws` (the bridge integrations open).
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send('hi');
    expect(await new Promise<string>((r) => ws.once('message', (d) => r(d.toString())))).toBe('/ws hi');
    ws.close();
    expect((await call('DELETE', '/v1/sprites/reach')).status).toBe(204);
    await removeBuiltClients();
  }, 180_000);

  it('a service with http_port decides the port the URL dials', async () => {
    const call = api(srv.url);
    await call('PUT', '/v1/sprites/box/services/web?duration=0', { cmd: 'sleep', args: ['1000'], http_port: 9090 });
    const res = await fetch(`${srv.url}/s/box/`, { headers: auth });
    expect(res.status).toBe(502);
    expect(dialled.at(-1)?.[1]).toBe(9090);
    expect((await call('POST', '/v1/sprites/box/services/web/stop?timeout=1s')).status).toBe(200);
    expect((await call('DELETE', '/v1/sprites/box/services/web')).status).toBe(204);
  });
});
