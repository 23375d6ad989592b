/**
 * The sprite's `url` from the API, on the sandbox engine: a `python3 -m http.server 8080` service in the sprite is
 * reached at `<url>/index.html` by curl, Python (urllib, requests, httpx), Node fetch and Go net/http with the
 * token; without it every client gets the 401 envelope; with `url_settings.auth: public` every client gets in. A
 * WebSocket server in the sprite is reached at `<url>/ws`. A client not installed here is skipped with its reason.
 * The url is a port of the sprite's own: a page there cannot run a command through the API, and a delete closes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, TOKEN, wsExec, startTestServer } from '../support/server.ts';
import { handshake, listening } from '../support/net-probe.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { getWithEveryClient, removeBuiltClients, reportSkips } from '../support/url-clients.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox sprite url clients');
let srv: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  if (skip) return;
  srv = await startTestServer('sandbox', { token: TOKEN });
  call = api(srv.url);
}, 60_000);
afterAll(async () => {
  await srv?.close();
  await removeBuiltClients();
});

/** Polls `url` with the token until the sprite's server answers something other than 502. */
async function untilServing(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } })).status !== 502) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never answered`);
}

describe.skipIf(skip)('the sprite url reaches a real server in a sandbox sprite', () => {
  it('every client gets index.html from python3 -m http.server 8080 with the token; 401 without; public opens it', async () => {
    const created = await call('POST', '/v1/sprites', { name: 'site' });
    expect(created.status).toBe(201);
    const url: string = created.json.url;
    expect((await call('GET', '/v1/sprites/site')).json.url).toBe(url);
    expect((await call('PUT', '/v1/sprites/site/fs/write?path=/home/sprite/www/index.html&mkdirParents=true', 'hello from index\n')).status).toBe(200);
    const svc = await call('PUT', '/v1/sprites/site/services/web?duration=0', {
      cmd: 'python3',
      args: ['-m', 'http.server', '8080', '--bind', '127.0.0.1', '--directory', '/home/sprite/www'],
      http_port: 8080,
    });
    expect(svc.status).toBe(200);
    await untilServing(`${url}/index.html`);

    const withToken = reportSkips(await getWithEveryClient(`${url}/index.html`, TOKEN), 'sandbox sprite url');
    expect(withToken.map((r) => [r.client, r.status, r.body])).toEqual(withToken.map((r) => [r.client, 200, 'hello from index\n']));
    expect(withToken.map((r) => r.client)).toEqual(expect.arrayContaining(['curl', 'node fetch']));
    const anon = reportSkips(await getWithEveryClient(`${url}/index.html`), 'sandbox sprite url');
    expect(anon.map((r) => [r.client, r.status, JSON.parse(r.body).error])).toEqual(anon.map((r) => [r.client, 401, 'unauthorized']));
    expect((await call('PUT', '/v1/sprites/site', { url_settings: { auth: 'public' } })).status).toBe(200);
    const open = reportSkips(await getWithEveryClient(`${url}/index.html`), 'sandbox sprite url');
    expect(open.map((r) => [r.client, r.status, r.body])).toEqual(open.map((r) => [r.client, 200, 'hello from index\n']));
  }, 180_000);

  it('a WebSocket to <url>/ws reaches a WebSocket server in the sprite', async () => {
    const created = await call('POST', '/v1/sprites', { name: 'bridge' });
    const url: string = created.json.url;
    // A minimal WebSocket echo in the sprite (its own node; no library), one frame each way.
    const echo = `const h=require('http'),c=require('crypto');const s=h.createServer((q,r)=>r.end('plain'));s.on('upgrade',(q,k)=>{const a=c.createHash('sha1').update(q.headers['sec-websocket-key']+'258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');k.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Accept: '+a+'\\r\\n\\r\\n');k.on('data',b=>{const n=b[1]&127,m=b.subarray(2,6),d=Buffer.from(b.subarray(6,6+n));for(let i=0;i<d.length;i++)d[i]^=m[i%4];const o=Buffer.from(q.url+' '+d);k.write(Buffer.concat([Buffer.from([0x81,o.length]),o]))})});s.listen(8080,'127.0.0.1');`;
    expect((await call('PUT', '/v1/sprites/bridge/fs/write?path=/home/sprite/echo.js', echo)).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/bridge/services/ws?duration=0', { cmd: 'node', args: ['/home/sprite/echo.js'], http_port: 8080 })).status).toBe(200);
    await untilServing(`${url}/`);
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send('hi');
    expect(await new Promise<string>((r) => ws.once('message', (d) => r(d.toString())))).toBe('/ws hi');
    ws.close();
  }, 60_000);

  it("the url is a port of its own: a page there cannot run a command through the API; deleting the sprite closes the port", async () => {
    const url: string = (await call('POST', '/v1/sprites', { name: 'origin' })).json.url;
    const port = Number(new URL(url).port);
    expect(String(port)).not.toBe(new URL(srv.url).port);
    const touch = `/v1/sprites/origin/exec?${execQuery(['touch', '/home/sprite/pwned'])}`;
    const token = `spritzer-token.${Buffer.from(TOKEN).toString('base64url')}`;
    const refused = await handshake(`${srv.url.replace(/^http/, 'ws')}${touch}`, { Origin: url }, ['spritzer-ui', token]);
    expect([refused.status, (refused.body as { error: string }).error]).toEqual([403, 'forbidden']);
    expect((await call('GET', '/v1/sprites/origin/fs/list?path=/home/sprite/pwned')).status).toBe(404);
    // An SDK (no Origin) still runs it.
    expect((await wsExec(srv.url, touch)).exitCode).toBe(0);
    expect((await call('GET', '/v1/sprites/origin/fs/list?path=/home/sprite/pwned')).status).toBe(200);
    expect(await listening(port)).toBe(true);
    expect((await call('DELETE', '/v1/sprites/origin')).status).toBe(204);
    expect(await listening(port)).toBe(false);
  }, 60_000);
});
