/**
 * The inspector in a real browser (docs/inspector.md): Debian's chromium driven by playwright-core against an
 * in-process spritzer. Open the page; a sprite created through the API appears; browse and view a file; upload,
 * download and delete one; `echo hi` in the xterm terminal (exec WebSocket, TTY); create and restore a checkpoint;
 * see requests in the log; add and delete a fault rule; under `--token` the page asks for the token once; on the
 * sandbox engine, an interactive bash with resize and attach. With SPRITZER_UI_SCREENSHOTS=1 each view is
 * saved to docs/images/inspector-*.png (the README's "Inspector" section); otherwise to a temp dir.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { api, startTestServer, TOKEN } from '../support/server.ts';
import { defaultDeps, startServer, type RunningServer } from '../../src/server/server.ts';
import { openMachineFactory } from '../../src/server/machines/index.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import { SequentialIds } from '../../src/server/core/ids.ts';
import { SKIP_REASON as SANDBOX_SKIP } from '../sandbox/support.ts';

const CHROMIUM = '/usr/bin/chromium';
if (SANDBOX_SKIP) console.warn(`inspector terminal on the sandbox engine skipped: ${SANDBOX_SKIP}`);
const SHOTS = process.env.SPRITZER_UI_SCREENSHOTS === '1' ? resolve('docs/images') : undefined;

let browser: Browser;
let shotDir: string;

beforeAll(async () => {
  shotDir = SHOTS ?? (await mkdtemp(join(tmpdir(), 'spritzer-ui-shots-')));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    // playwright's launch() always starts chromium on a new, empty --user-data-dir of its own (and refuses one given here).
  });
});
afterAll(async () => {
  await browser?.close();
  if (!SHOTS) await rm(shotDir, { recursive: true, force: true });
});

/** The lines of the page's xterm buffer, right-trimmed. */
function terminalLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Buf = { length: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined };
    const t = (window as unknown as { __term: { buffer: { active: Buf } } }).__term;
    const lines: string[] = [];
    for (let i = 0; i < t.buffer.active.length; i++) lines.push(t.buffer.active.getLine(i)?.translateToString(true) ?? '');
    return lines;
  });
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(shotDir, `inspector-${name}.png`) });
}

describe('inspector (no token)', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    srv = await startTestServer('shell');
    call = api(srv.url);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await srv?.close();
  });

  it('a browser asking for / lands on the inspector; an API client keeps the JSON answer', async () => {
    await page.goto(`${srv.url}/`);
    expect(new URL(page.url()).pathname).toBe('/_spritzer/ui/');
    await expect(page.locator('h1').textContent()).resolves.toBe('spritzer inspector');
    const res = await fetch(`${srv.url}/`, { headers: { Accept: 'application/json', Authorization: `Bearer ${TOKEN}` } });
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(res.status).toBe(404);
  });

  it('a sprite created through the API appears in the list, with its status and labels', async () => {
    const created = await call('POST', '/v1/sprites', { name: 'ui-demo', labels: ['team-a'] });
    expect(created.status).toBe(201);
    const row = page.locator('[data-sprite="ui-demo"]');
    await row.waitFor({ timeout: 5000 });
    await expect(row.textContent()).resolves.toContain('team-a');
    await expect(row.textContent()).resolves.toContain(created.json.url);
    await shot(page, 'sprites');
  });

  it('browses a directory and views a file', async () => {
    const put = await fetch(`${srv.url}/v1/sprites/ui-demo/fs/write?path=${encodeURIComponent('/home/sprite/notes/hello.txt')}&mkdirParents=true`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream' },
      body: 'hello from the API\n',
    });
    expect(put.status).toBe(200);
    await page.locator('[data-sprite="ui-demo"]').click();
    await page.locator('#files').waitFor();
    await page.locator('[data-path="/home/sprite/notes"] td').first().click();
    await page.locator('#cwd', { hasText: '/home/sprite/notes' }).waitFor();
    await page.locator('[data-path="/home/sprite/notes/hello.txt"] td').first().click();
    await page.locator('#file-content', { hasText: 'hello from the API' }).waitFor({ timeout: 5000 });
    await shot(page, 'files');
  });

  it('uploads a file into the current directory, downloads it, and deletes it', async () => {
    await page.locator('#upload').setInputFiles({ name: 'up.txt', mimeType: 'text/plain', buffer: Buffer.from('uploaded bytes\n') });
    const row = page.locator('[data-path="/home/sprite/notes/up.txt"]');
    await row.waitFor({ timeout: 5000 });
    const read = await call('GET', `/v1/sprites/ui-demo/fs/read?path=${encodeURIComponent('/home/sprite/notes/up.txt')}`);
    expect(read.text).toBe('uploaded bytes\n');
    const [download] = await Promise.all([page.waitForEvent('download'), row.locator('button', { hasText: 'download' }).click()]);
    expect(download.suggestedFilename()).toBe('up.txt');
    page.once('dialog', (d) => void d.accept());
    await row.locator('button', { hasText: 'delete' }).click();
    await expect.poll(() => page.locator('[data-path="/home/sprite/notes/up.txt"]').count()).toBe(0);
    expect((await call('GET', `/v1/sprites/ui-demo/fs/list?path=${encodeURIComponent('/home/sprite/notes/up.txt')}`)).status).toBe(404);
  });

  it('runs `echo hi` in the live terminal (exec WebSocket with tty=true) and shows hi', async () => {
    await page.locator('#tab-btn-terminal').click();
    await page.locator('#terminal-command').fill('echo hi');
    await page.locator('#open-bash').click();
    await page.locator('#terminal-status', { hasText: 'exited with code 0' }).waitFor({ timeout: 5000 });
    await expect.poll(() => terminalLines(page), { timeout: 5000 }).toContain('hi');
    await shot(page, 'terminal');
  });

  it('creates a checkpoint, then restores it, showing the NDJSON progress; the file is back', async () => {
    await page.locator('#tab-btn-checkpoints').click();
    await page.locator('#checkpoint-comment').fill('before edit');
    await page.locator('#checkpoint-create').click();
    await page.locator('#checkpoint-progress', { hasText: 'done' }).waitFor({ timeout: 10000 });
    const list = await call('GET', '/v1/sprites/ui-demo/checkpoints');
    const cp = (list.json as { id: string; comment?: string }[]).find((c) => c.comment === 'before edit');
    expect(cp).toBeDefined();
    await fetch(`${srv.url}/v1/sprites/ui-demo/fs/write?path=${encodeURIComponent('/home/sprite/notes/hello.txt')}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream' },
      body: 'changed\n',
    });
    await page.locator(`[data-checkpoint="${cp!.id}"] button`).click();
    await page.locator('#checkpoint-progress', { hasText: /restore/i }).waitFor({ timeout: 10000 });
    await page.locator('#checkpoint-progress', { hasText: 'done (HTTP 200)' }).waitFor({ timeout: 10000 });
    const read = await fetch(`${srv.url}/v1/sprites/ui-demo/fs/read?path=${encodeURIComponent('/home/sprite/notes/hello.txt')}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(await read.text()).toBe('hello from the API\n');
    await shot(page, 'checkpoints');
  });

  it('shows services with their state and live logs, and the network policy', async () => {
    expect((await call('PUT', '/v1/sprites/ui-demo/services/greeter?duration=0', { cmd: 'echo', args: ['hello-from-service'] })).status).toBe(200);
    await page.locator('#tab-btn-services').click();
    const row = page.locator('#services tr', { hasText: 'greeter' });
    await row.waitFor();
    await row.locator('button', { hasText: 'live logs' }).click();
    await page.locator('#service-logs', { hasText: 'hello-from-service' }).waitFor({ timeout: 5000 });
    await shot(page, 'services');
    await page.locator('#tab-btn-policy').click();
    await page.locator('#policy').waitFor();
    await shot(page, 'policy');
  });

  it('lists API calls and WebSocket sessions in the request log, filterable, with details but never the token', async () => {
    await page.locator('#nav-requests').click();
    const create = page.locator('#requests tr', { hasText: '/v1/sprites' }).filter({ hasText: 'POST' }).first();
    await create.waitFor({ timeout: 5000 });
    await expect(page.locator('#requests tr', { hasText: 'WS GET' }).first().textContent()).resolves.toContain('/v1/sprites/ui-demo/exec');
    await page.locator('#request-filter').fill('checkpoint');
    await expect.poll(() => page.locator('#requests tr[data-request]').allTextContents()).not.toHaveLength(0);
    for (const text of await page.locator('#requests tr[data-request]').allTextContents()) expect(text).toContain('checkpoint');
    await page.locator('#request-filter').fill('POST /v1/sprites');
    await page.locator('#requests tr[data-request]', { hasText: '201' }).first().click();
    await page.locator('#request-body', { hasText: 'ui-demo' }).waitFor();
    const detail = await page.locator('#request-detail').textContent();
    expect(detail).not.toContain(TOKEN);
    expect(detail?.toLowerCase()).not.toContain('authorization');
    await shot(page, 'requests');
  });

  it('adds and deletes fault rules, and the rule takes effect', async () => {
    await page.locator('#nav-faults').click();
    await page.locator('#fault-op').fill('getSprite');
    await page.locator('#fault-status').fill('503');
    await page.locator('#fault-form input[type=submit]').click();
    await page.locator('#faults tr[data-fault]').first().waitFor();
    expect((await call('GET', '/v1/sprites/ui-demo')).status).toBe(503);
    await shot(page, 'faults');
    await page.locator('#faults tr[data-fault] button').first().click();
    await expect.poll(() => page.locator('#faults tr[data-fault]').count()).toBe(0);
    expect((await call('GET', '/v1/sprites/ui-demo')).status).toBe(200);
  });
});

describe('inspector under --token', () => {
  let srv: RunningServer;
  let context: BrowserContext;
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN });
    await api(srv.url)('POST', '/v1/sprites', { name: 'locked' });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await context?.close();
    await srv?.close();
  });

  it('asks for the token once, keeps it for the tab, and the terminal authenticates through the sub-protocol', async () => {
    const page = await context.newPage();
    await page.goto(`${srv.url}/_spritzer/ui/`);
    await page.locator('#token-form input[name=token]').fill(TOKEN);
    await page.locator('#token-form input[type=submit]').click();
    await page.locator('[data-sprite="locked"]').waitFor({ timeout: 5000 });
    await page.reload();
    await page.locator('[data-sprite="locked"]').waitFor({ timeout: 5000 });
    expect(await page.locator('#token-form').count()).toBe(0);
    await page.locator('[data-sprite="locked"]').click();
    await page.locator('#tab-btn-terminal').click();
    await page.locator('#terminal-command').fill('echo locked');
    await page.locator('#open-bash').click();
    await page.locator('#terminal-status', { hasText: 'exited with code 0' }).waitFor({ timeout: 5000 });
    await expect.poll(() => terminalLines(page), { timeout: 5000 }).toContain('locked');
    const log = (await api(srv.url)('GET', '/_spritzer/requests')).json as { requests: { kind: string; status: number; requestHeaders: Record<string, string> }[] };
    const ws = log.requests.find((r) => r.kind === 'ws');
    expect(ws?.status).toBe(101);
    expect(JSON.stringify(log)).not.toContain(TOKEN);
  });
});

describe.skipIf(!!SANDBOX_SKIP)('inspector terminal on the sandbox engine (interactive bash on a real pseudo-terminal)', () => {
  let srv: RunningServer;
  let context: BrowserContext;
  beforeAll(async () => {
    const clock = new SystemClock();
    const machines = await openMachineFactory('sandbox', { clock });
    srv = await startServer(defaultDeps({ clock, ids: new SequentialIds(), machines, token: TOKEN }));
    await api(srv.url)('POST', '/v1/sprites', { name: 'real' });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await context?.close();
    await srv?.close();
  });

  it('types `echo hi` into bash and sees hi; a smaller window resizes the pty (stty size); attach from the session list', async () => {
    const page = await context.newPage();
    await page.goto(`${srv.url}/_spritzer/ui/`);
    await page.evaluate((t) => sessionStorage.setItem('spritzer-token', t), TOKEN);
    await page.reload();
    await page.locator('[data-sprite="real"]').click();
    await page.locator('#tab-btn-terminal').click();
    await page.locator('#open-bash').click();
    await page.locator('#terminal-status', { hasText: 'session' }).waitFor({ timeout: 15000 });
    await page.locator('#terminal .xterm').click();
    await page.keyboard.type('echo hi\r');
    await expect.poll(() => terminalLines(page), { timeout: 10000 }).toContain('hi');
    await shot(page, 'terminal'); // replaces the shell engine's shot: an interactive bash shows more
    await page.setViewportSize({ width: 900, height: 700 });
    const size = await expect
      .poll(() => page.evaluate(() => (window as unknown as { __term: { cols: number } }).__term.cols), { timeout: 5000 })
      .toBeLessThan(100)
      .then(() => page.evaluate(() => { const t = (window as unknown as { __term: { rows: number; cols: number } }).__term; return `${t.rows} ${t.cols}`; }));
    await page.keyboard.type('stty size\r');
    await expect.poll(() => terminalLines(page), { timeout: 10000 }).toContain(size);
    // The session is listed; attaching to it from the list replays its output and takes input again.
    await page.locator('#sessions tr', { hasText: 'bash' }).locator('button').click();
    await page.locator('#terminal-status', { hasText: 'session 1' }).waitFor({ timeout: 10000 });
    await page.locator('#terminal .xterm').click();
    await page.keyboard.type('echo attached-$((6*7))\r');
    await expect.poll(() => terminalLines(page), { timeout: 10000 }).toContain('attached-42');
  });
});
