/**
 * Per-sprite resource limits with their documented errors (docs/limits.md), so that one sprite cannot exhaust the
 * server: the regular-file count (`--max-files`: ENOSPC in the fs envelope, 507; a shell write fails with ENOSPC)
 * and the running exec sessions (`--max-sessions`: 429 JSON with `Retry-After`, before a WebSocket upgrade and
 * before an HTTP exec starts), and the automatic checkpoints a sprite keeps (`--auto-checkpoints`: the oldest go).
 * Nothing crashes and a refused request changes nothing. The disk-bytes quota,
 * services per sprite and the JSON body size have their tests in limits.test.ts, json-bomb.test.ts and
 * ../exec/exec-streams.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, startTestServer, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { DEFAULT_LIMITS } from '../../../src/server/core/limits.ts';
import { seedState, expectIntact } from '../../support/attack.ts';

/** The counters `/_spritzer/state` keeps for `name`. */
async function counters(call: ReturnType<typeof api>, name: string): Promise<{ files: number; bytes: number; sessions: number }> {
  const state = (await call('GET', '/_spritzer/state')).json;
  return state.sprites.find((s: { name: string }) => s.name === name);
}

describe('--max-files: regular files per sprite', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  let skeleton: number;
  const EXTRA = 3;

  beforeAll(async () => {
    // A sprite starts with a few files of its Linux skeleton (/etc/hostname, …): measure them on a first server.
    const probe = await startTestServer('shell');
    await api(probe.url)('POST', '/v1/sprites', { name: 'probe' });
    skeleton = (await counters(api(probe.url), 'probe')).files;
    await probe.close();
    srv = await startTestServer('shell', { limits: { ...DEFAULT_LIMITS, filesMax: skeleton + EXTRA } });
    call = api(srv.url);
    await seedState(srv.url); // one file in sprite `keep`; limits are per sprite
    expect((await call('POST', '/v1/sprites', { name: 'box' })).status).toBe(201);
  });
  afterAll(() => srv.close());

  it('one file past the limit is 507 ENOSPC in the fs envelope; nothing is written', async () => {
    for (let i = 0; i < EXTRA; i++) {
      expect((await call('PUT', `/v1/sprites/box/fs/write?path=/home/sprite/f${i}`, 'x')).status).toBe(200);
    }
    const before = await counters(call, 'box');
    const r = await call('PUT', '/v1/sprites/box/fs/write?path=/home/sprite/one-more', 'x');
    expect(r.status).toBe(507);
    expect(r.json).toEqual({ error: expect.stringContaining('ENOSPC: no space left on device'), code: 'ENOSPC', path: '/home/sprite/one-more' });
    expect((await call('GET', '/v1/sprites/box/fs/read?path=/home/sprite/one-more')).status).toBe(404);
    expect(await counters(call, 'box')).toEqual(before);
  });

  it('at the limit, overwriting a file, making directories and deleting still work; a copy is ENOSPC', async () => {
    expect((await call('PUT', '/v1/sprites/box/fs/write?path=/home/sprite/f0', 'longer content')).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/box/fs/write?path=/home/sprite/d/e/f&mkdirParents=true', 'x')).status).toBe(507);
    const copy = await call('POST', '/v1/sprites/box/fs/copy', { source: '/home/sprite/f0', dest: '/home/sprite/f0-copy' });
    expect(copy.status).toBe(507);
    expect(copy.json).toMatchObject({ code: 'ENOSPC' });
    expect((await call('DELETE', '/v1/sprites/box/fs/delete?path=/home/sprite/f1')).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/box/fs/write?path=/home/sprite/after-delete', 'x')).status).toBe(200);
  });

  it('a shell command that creates one file too many fails with ENOSPC (exit 1), the others still exist', async () => {
    const r = await call('POST', `/v1/sprites/box/exec?${execQuery(['sh', '-c', 'echo hi > /home/sprite/shell-file'])}`);
    expect(r.status).toBe(200);
    const body = Buffer.from(r.text, 'latin1');
    expect(body.at(-2)).toBe(3);
    expect(body.at(-1)).toBe(1);
    expect(r.text).toContain('No space left on device');
    expect((await call('GET', '/v1/sprites/box/fs/read?path=/home/sprite/f0')).text).toBe('longer content');
  });

  it('other sprites are not affected, and the server serves on', async () => {
    expect((await call('PUT', '/v1/sprites/keep/fs/write?path=/home/sprite/more', 'x')).status).toBe(200);
    await expectIntact(srv.url);
  });
});

/** Opens an exec WebSocket; resolves with the socket once open, or with the refused handshake. */
function openExec(base: string, name: string, query: string): Promise<{ ws?: WebSocket; status?: number; body?: any; headers?: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/sprites/${name}/exec?${query}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text), headers: res.headers }));
    });
    ws.on('error', (err) => {
      if (!err.message.startsWith('Unexpected server response')) reject(err);
    });
  });
}

describe('--max-sessions: running exec sessions per sprite', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  const open: WebSocket[] = [];
  // No max_run_after_disconnect: a non-TTY command ends with its socket, so closing one frees its slot.
  const sleeper = execQuery(['sleep', '60']);

  beforeAll(async () => {
    srv = await startTestServer('shell', { limits: { ...DEFAULT_LIMITS, sessionsMax: 2 } });
    call = api(srv.url);
    expect((await call('POST', '/v1/sprites', { name: 'box' })).status).toBe(201);
    expect((await call('POST', '/v1/sprites', { name: 'other' })).status).toBe(201);
  });
  afterAll(async () => {
    for (const ws of open) ws.close();
    await srv.close();
  });

  it('the session past the limit is refused before the upgrade: 429 JSON with Retry-After; the others run on', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await openExec(srv.url, 'box', sleeper);
      expect(r.ws).toBeDefined();
      open.push(r.ws!);
    }
    for (let i = 0; i < 50 && (await counters(call, 'box')).sessions < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await counters(call, 'box')).sessions).toBe(2);
    const refused = await openExec(srv.url, 'box', sleeper);
    expect(refused.status).toBe(429);
    expect(refused.headers?.['retry-after']).toBe('1');
    expect(refused.body).toEqual({
      error: 'concurrent_session_limit_exceeded',
      message: expect.stringContaining('at most 2'),
      limit: 2,
      current_count: 2,
      retry_after_seconds: 1,
    });
    expect((await call('GET', '/v1/sprites/box/exec')).json.count).toBe(2);
  });

  it('HTTP exec past the limit is 429 JSON before anything runs', async () => {
    const r = await call('POST', `/v1/sprites/box/exec?${execQuery(['sh', '-c', 'echo ran > /home/sprite/ran'])}`);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.json).toMatchObject({ error: 'concurrent_session_limit_exceeded', limit: 2, current_count: 2 });
    expect((await call('GET', '/v1/sprites/box/fs/read?path=/home/sprite/ran')).status).toBe(404);
  });

  it('attaching to a running session is not limited; another sprite has its own budget', async () => {
    const id = (await call('GET', '/v1/sprites/box/exec')).json.sessions[0].id;
    const attach = await openExec(srv.url, 'box', `id=${id}`);
    expect(attach.ws).toBeDefined();
    attach.ws!.close();
    const r = await call('POST', `/v1/sprites/other/exec?${execQuery(['echo', 'ok'])}`);
    expect(r.status).toBe(200);
  });

  it('once a session ends, a new command starts again', async () => {
    open.shift()!.close();
    for (let i = 0; i < 100 && (await counters(call, 'box')).sessions > 1; i++) await new Promise((r) => setTimeout(r, 10));
    const r = await call('POST', `/v1/sprites/box/exec?${execQuery(['echo', 'again'])}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('again');
  });
});

describe('--auto-checkpoints: automatic checkpoints a sprite keeps', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof api>;
  const autoIds = async (name: string) =>
    (await call('GET', `/v1/sprites/${name}/checkpoints?includeAuto=true`)).json.filter((c: { is_auto?: boolean }) => c.is_auto).map((c: { id: string }) => c.id);

  beforeAll(async () => {
    srv = await startTestServer('shell', { limits: { ...DEFAULT_LIMITS, autoCheckpointsMax: 2 } });
    call = api(srv.url);
    for (const name of ['box', 'other']) {
      await call('POST', '/v1/sprites', { name });
      await call('POST', `/v1/sprites/${name}/checkpoint`, {});
    }
  });
  afterAll(() => srv.close());

  it('restores past the limit drop the oldest automatic ones, per sprite; manual ones stay', async () => {
    const taken: string[] = [];
    for (let i = 0; i < 4; i++) {
      expect((await call('POST', '/v1/sprites/box/checkpoints/v1/restore')).status).toBe(200);
      taken.unshift((await autoIds('box'))[0]);
    }
    expect(new Set(taken).size).toBe(4);
    expect(await autoIds('box')).toEqual(taken.slice(0, 2));
    expect((await call('GET', `/v1/sprites/box/checkpoints/${taken[3]}`)).status).toBe(404);
    expect((await call('GET', '/v1/sprites/box/checkpoints')).json.map((c: { id: string }) => c.id)).toEqual(['Current', 'v1']);
    await call('POST', '/v1/sprites/other/checkpoints/v1/restore');
    expect(await autoIds('other')).toHaveLength(1);
    expect(await autoIds('box')).toEqual(taken.slice(0, 2));
  });
});
