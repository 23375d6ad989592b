/**
 * Hostile inputs over the wire (deep paths, watch subscriptions, many checkpoints, oversized fields, fault rules and
 * service chains; docs/limits.md): each gets its documented answer, the server keeps answering
 * `GET /_spritzer/health` (also while the input is being handled), and an earlier sprite and its file are intact
 * afterwards. No wall-clock assertions: linearity is proved in the unit tests by counting work (vfs-limits,
 * checkpoint-history, service-graph) and measured in bench/limits.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, execQuery, startTestServer, TOKEN, wsExec } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';
import { DEFAULT_LIMITS } from '../../../src/server/core/limits.ts';
import { withHealthProbe } from '../../support/attack.ts';

const QUOTA = 1024 * 1024;
let srv: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  srv = await startTestServer('shell', {
    clock: new FakeClock(Date.parse('2026-06-01T00:00:00Z')),
    limits: { ...DEFAULT_LIMITS, diskQuotaBytes: QUOTA, servicesMax: 12, watchBufferedBytes: 64 * 1024 },
  });
  call = api(srv.url);
  expect((await call('POST', '/v1/sprites', { name: 'keep' })).status).toBe(201);
  expect((await call('PUT', '/v1/sprites/keep/fs/write?path=/home/sprite/keep.txt', 'precious')).status).toBe(200);
});
afterAll(() => srv.close());

/** The server answers health, and the sprite and file made before any attack are unchanged. */
async function expectIntact(): Promise<void> {
  const health = await call('GET', '/_spritzer/health');
  expect(health.status).toBe(200);
  expect(health.json.status).toBe('ok');
  expect((await call('GET', '/v1/sprites/keep')).status).toBe(200);
  const file = await call('GET', '/v1/sprites/keep/fs/read?path=/home/sprite/keep.txt');
  expect([file.status, file.text]).toEqual([200, 'precious']);
}

/** Runs `attack` while health is probed back to back; every probe must answer 200 (latencies are printed). */
function duringAttack<T>(label: string, attack: () => Promise<T>): Promise<T> {
  return withHealthProbe(srv.url, label, attack);
}

/** `/a/a/…` with `n` components. */
const deep = (n: number) => '/a'.repeat(n);

describe('long and deep paths are refused at PATH_MAX, NAME_MAX, NUL and newline', () => {
  beforeAll(async () => {
    await call('POST', '/v1/sprites', { name: 'paths' });
  });

  it('a write 5,000 and 6,000 levels deep is 400 ENAMETOOLONG in the fs envelope, creating nothing', async () => {
    for (const depth of [5000, 6000]) {
      const r = await duringAttack(`write ${depth} levels deep`, () => call('PUT', `/v1/sprites/paths/fs/write?mkdirParents=true&path=/t${deep(depth)}`, 'x'));
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: expect.stringMatching(/^ENAMETOOLONG: file name too long/), code: 'ENAMETOOLONG', path: expect.stringMatching(/^\/t\/a\/a/) });
      expect(r.json.path.length).toBeLessThanOrEqual(4096);
    }
    expect((await call('GET', '/v1/sprites/paths/fs/list?path=/t')).status).toBe(404);
    await expectIntact();
  });

  it('the deepest path Linux allows works end to end: write, read, list recursively, delete', async () => {
    const path = `/t${deep(2045)}/f`; // 4094 bytes
    const w = await call('PUT', `/v1/sprites/paths/fs/write?mkdirParents=true&path=${path}`, 'deep');
    expect([w.status, w.json.size]).toEqual([200, 4]);
    expect((await call('GET', `/v1/sprites/paths/fs/read?path=${path}`)).text).toBe('deep');
    // The answers are about 4.4 MB each (every entry names its long path): streamed, not built in one step.
    const list = await duringAttack('list -R of the deepest path', () => call('GET', '/v1/sprites/paths/fs/list?path=/t&recursive=true'));
    expect([list.status, list.json.count, list.json.entries.length]).toEqual([200, 2046, 2046]);
    expect(list.json.entries.at(-1)).toMatchObject({ path, name: 'f', type: 'file', size: 4, isDir: false });
    expect([list.headers.get('transfer-encoding'), list.headers.get('content-length')]).toEqual(['chunked', null]);
    const del = await duringAttack('rm -r of the deepest path', () => call('DELETE', '/v1/sprites/paths/fs/delete?path=/t&recursive=true'));
    expect([del.status, del.json.count, del.json.deleted.length]).toEqual([200, 2047, 2047]);
    expect(del.json.deleted).toContain(path);
    expect(del.headers.get('transfer-encoding')).toBe('chunked');
    await expectIntact();
  });

  it('a component over 255 bytes, a long workingDir, and long rename/copy paths are ENAMETOOLONG', async () => {
    const long = 'n'.repeat(256);
    const answers = await Promise.all([
      call('PUT', `/v1/sprites/paths/fs/write?path=/tmp/${long}`, 'x'),
      call('GET', `/v1/sprites/paths/fs/read?path=f&workingDir=${deep(2047)}`),
      call('POST', '/v1/sprites/paths/fs/rename', { source: '/tmp', dest: `/x${deep(3000)}` }),
      call('POST', '/v1/sprites/paths/fs/copy', { source: `/tmp/${long}`, dest: '/y', recursive: true }),
      call('POST', '/v1/sprites/paths/fs/chmod', { path: `/${long}`, mode: '0755' }),
      call('DELETE', `/v1/sprites/paths/fs/delete?path=/${long}`),
    ]);
    for (const r of answers) expect([r.status, r.json?.code]).toEqual([400, 'ENAMETOOLONG']);
    expect((await call('GET', '/v1/sprites/paths/fs/list?path=/tmp')).json.count).toBe(0);
    await expectIntact();
  });

  it('a NUL byte or a newline in a path is 400 EINVAL', async () => {
    for (const bad of ['/tmp/a%00b', '/tmp/a%0Ab', '/tmp/a%0Db']) {
      const r = await call('PUT', `/v1/sprites/paths/fs/write?path=${bad}`, 'x');
      expect([r.status, r.json.code]).toEqual([400, 'EINVAL']);
    }
    const r = await call('POST', '/v1/sprites/paths/fs/rename', { source: '/tmp', dest: '/tmp2\n' });
    expect([r.status, r.json.code]).toEqual([400, 'EINVAL']);
    await expectIntact();
  });
});

/** Opens a watch socket and collects what it receives. */
function openWatch(sprite: string) {
  const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/v1/sprites/${sprite}/fs/watch`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  const messages: any[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (d) => {
    messages.push(JSON.parse(d.toString()));
    waiters.splice(0).forEach((w) => w());
  });
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  const opened = new Promise<void>((r, j) => {
    ws.on('open', () => r());
    ws.on('error', j);
  });
  async function until(pred: (m: any[]) => boolean): Promise<void> {
    while (!pred(messages)) await new Promise<void>((r) => waiters.push(r));
  }
  return { ws, messages, closed, opened, until };
}

describe('fs/watch subscriptions are bounded and a slow watcher is dropped', () => {
  beforeAll(async () => {
    await call('POST', '/v1/sprites', { name: 'watched' });
  });

  it('60,000 copies of / are one subscription: each write is reported once', async () => {
    const w = openWatch('watched');
    await w.opened;
    // 60,000 stays under the items a subscribe message may hold (ws/frame-limits.ts); more close it 1008.
    await duringAttack('subscribe with 60,000 copies of /, then two writes', async () => {
      w.ws.send(JSON.stringify({ type: 'subscribe', paths: Array(60_000).fill('/'), recursive: true }));
      await w.until((m) => m.length > 0);
      await call('PUT', '/v1/sprites/watched/fs/write?path=/tmp/one.txt', '1');
      await call('PUT', '/v1/sprites/watched/fs/write?path=/tmp/two.txt', '2');
    });
    expect(w.messages[0]).toEqual({ type: 'subscribed', paths: ['/'] });
    await w.until((m) => m.some((x) => x.path === '/tmp/two.txt'));
    expect(w.messages.filter((x) => x.path === '/tmp/one.txt')).toHaveLength(1);
    w.ws.close();
    await expectIntact();
  });

  it('more than 1,024 distinct paths, or a path over PATH_MAX, closes with 1008', async () => {
    const cases = [
      { paths: Array.from({ length: 1025 }, (_, i) => `/p${i}`), reason: 'too many paths: at most 1024 per subscribe' },
      { paths: [`/w${deep(2100)}`], reason: 'invalid path: ENAMETOOLONG' },
      { paths: ['/tmp/a\nb'], reason: 'invalid path: EINVAL' },
    ];
    for (const c of cases) {
      const w = openWatch('watched');
      await w.opened;
      w.ws.send(JSON.stringify({ type: 'subscribe', paths: c.paths }));
      expect(await w.closed).toEqual({ code: 1008, reason: c.reason });
    }
    await expectIntact();
  });

  it('a watcher that stops reading is dropped with 1013 past its backlog cap; the server and other watchers go on', async () => {
    // 200 files 3 KB deep: renaming their directory reports each of them removed and created (~1.3 MB of events).
    const dir = `/${'d'.repeat(250)}/sub`.repeat(12);
    await call('PUT', `/v1/sprites/watched/fs/write?mkdirParents=true&path=/big/x${dir}/f0`, 'x');
    const made = await wsExec(srv.url, `/v1/sprites/watched/exec?${execQuery(['sh', '-c', 'for i in $(seq 1 199); do echo x > f$i; done'], { dir: `/big/x${dir}` })}`);
    expect(made.exitCode).toBe(0);
    const slow = openWatch('watched');
    const good = openWatch('watched');
    await Promise.all([slow.opened, good.opened]);
    slow.ws.send(JSON.stringify({ type: 'subscribe', paths: ['/big'], recursive: true }));
    good.ws.send(JSON.stringify({ type: 'subscribe', paths: ['/big'], recursive: false })); // two events per rename
    await Promise.all([slow.until((m) => m.length > 0), good.until((m) => m.length > 0)]);
    slow.ws.pause(); // stops reading the socket: the server's send buffer fills
    const renames = 24;
    await duringAttack('24 renames of 200 files with a watcher that stopped reading', async () => {
      for (let i = 0; i < renames; i++) {
        const [from, to] = i % 2 ? ['y', 'x'] : ['x', 'y'];
        const r = await call('POST', '/v1/sprites/watched/fs/rename', { source: `/big/${from}`, dest: `/big/${to}` });
        expect(r.status).toBe(200);
        await good.until((m) => m.filter((x) => x.event === 'create').length === i + 1);
      }
    });
    await expectIntact();
    slow.ws.resume();
    expect((await slow.closed).code).toBe(1013);
    expect(slow.messages.length).toBeLessThan(renames * 2 * 225); // part of the events, then the close
    expect(good.messages.filter((m) => m.event === 'create')).toHaveLength(renames);
    expect(good.ws.readyState).toBe(WebSocket.OPEN);
    good.ws.close();
  });
});

describe('a sprite with many checkpoints lists them and their history while the server keeps answering', () => {
  const N = 1200;
  beforeAll(async () => {
    await call('POST', '/v1/sprites', { name: 'cps' });
    const sprite = srv.spritzer.ctx.model.get('cps');
    for (let i = 0; i < N; i++) await sprite.createCheckpoint(`c${i}`);
  });

  it('the list is the whole array, Current first then newest first, without history (streamed when long)', async () => {
    const r = await duringAttack(`list ${N} checkpoints`, () => call('GET', '/v1/sprites/cps/checkpoints'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.json).toHaveLength(N + 1);
    expect(r.json[0]).toMatchObject({ id: 'Current' });
    expect(r.json[1]).toEqual({ id: `v${N}`, create_time: expect.any(String), comment: `c${N - 1}`, is_auto: false, source_id: `v${N - 1}` });
    expect(r.json.at(-1)).toMatchObject({ id: 'v1' });
    expect(r.json.some((c: any) => 'history' in c)).toBe(false);
    await expectIntact();
  });

  it('the single get carries the full history; ?history= lists the descendants', async () => {
    const one = await call('GET', `/v1/sprites/cps/checkpoints/v${N}`);
    expect(one.json.history).toHaveLength(N - 1);
    expect(one.json.history.slice(0, 2)).toEqual(['v1', 'v2']);
    const lines = await duringAttack(`?history=v1 over ${N} checkpoints`, () => call('GET', '/v1/sprites/cps/checkpoints?history=v1'));
    expect(lines.text.split('\n').filter(Boolean)).toHaveLength(N - 1);
    expect((await call('GET', `/v1/sprites/cps/checkpoints?history=v${N - 1}`)).text).toBe(`v${N}\n`);
    await expectIntact();
  });
});

describe('sprite field sizes and the disk quota are enforced with documented errors', () => {
  it('refuses oversized labels, config and environment with a documented 400, storing nothing', async () => {
    const bodies = [
      { name: 'big1', labels: Array(65).fill('l') },
      { name: 'big2', labels: ['x'.repeat(129)] },
      { name: 'big3', config: { region: 'ord', junk: 'z'.repeat(10_000) } },
      { name: 'big4', environment: { BIG: 'e'.repeat(70_000) } },
    ];
    for (const body of bodies) {
      const r = await duringAttack(`create ${body.name} with an oversized field`, () => call('POST', '/v1/sprites', body));
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ error: 'invalid_request', message: expect.any(String), errors: expect.any(Array) });
      expect((await call('GET', `/v1/sprites/${body.name}`)).status).toBe(404);
    }
    const upd = await call('PUT', '/v1/sprites/keep', { labels: Array(100).fill('l') });
    expect(upd.status).toBe(400);
    expect((await call('GET', '/v1/sprites/keep')).json.labels).toEqual([]);
    await expectIntact();
  });

  it('a write over the disk quota is 507 ENOSPC in the fs envelope, and the file is not written', async () => {
    await call('POST', '/v1/sprites', { name: 'full' });
    const first = await call('PUT', '/v1/sprites/full/fs/write?path=/home/sprite/a.bin', new Uint8Array(700 * 1024));
    expect(first.status).toBe(200);
    const over = await duringAttack('a write over the disk quota', () => call('PUT', '/v1/sprites/full/fs/write?path=/home/sprite/b.bin', new Uint8Array(400 * 1024)));
    expect(over.status).toBe(507);
    expect(over.json).toEqual({ error: expect.stringMatching(/^ENOSPC: no space left on device/), code: 'ENOSPC', path: '/home/sprite/b.bin' });
    expect((await call('GET', '/v1/sprites/full/fs/read?path=/home/sprite/b.bin')).status).toBe(404);
    const copy = await call('POST', '/v1/sprites/full/fs/copy', { source: '/home/sprite/a.bin', dest: '/tmp/a2.bin' });
    expect([copy.status, copy.json.code]).toEqual([507, 'ENOSPC']);
    expect((await call('PUT', '/v1/sprites/full/fs/write?path=/home/sprite/a.bin', new Uint8Array(100))).status).toBe(200);
    await expectIntact();
  });

  it('a shell write over the quota fails with ENOSPC too', async () => {
    await call('POST', '/v1/sprites', { name: 'fullsh' });
    const script = 'seq 1 90000 > /home/sprite/a && seq 1 90000 > /home/sprite/b'; // ~560 KB each, 1 MiB quota
    const r = await wsExec(srv.url, `/v1/sprites/fullsh/exec?${execQuery(['sh', '-c', script])}`);
    expect(r.exitCode).not.toBe(0);
    // Worded as bash words a failed redirection (`describeShellError`), so scripts see the error real bash gives.
    expect(r.stderr).toContain('sh: /home/sprite/b: No space left on device');
    expect((await call('GET', '/v1/sprites/fullsh/fs/read?path=/home/sprite/a')).status).toBe(200);
    // As in bash, `>` created (truncated) the file before the write failed: it exists, empty.
    const b = await call('GET', '/v1/sprites/fullsh/fs/read?path=/home/sprite/b');
    expect([b.status, b.text]).toEqual([200, '']);
    await expectIntact();
  });
});

describe('fault rules and service chains are capped', () => {
  it('fault rules are capped at 1,000: one more is 400, replacing by id and clearing still work', async () => {
    for (let i = 0; i < 999; i++) srv.spritzer.ctx.faults.add({ status: 500, sprite: 'nobody' });
    expect((await call('POST', '/_spritzer/faults', { id: 'last', status: 500, sprite: 'nobody' })).status).toBe(201);
    const over = await duringAttack('the 1,001st fault rule', () => call('POST', '/_spritzer/faults', { status: 500, sprite: 'nobody' }));
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('at most 1000') });
    expect((await call('POST', '/_spritzer/faults', { id: 'last', status: 503, sprite: 'nobody' })).status).toBe(201);
    expect((await call('GET', '/_spritzer/faults')).json.rules).toHaveLength(1000);
    expect((await call('DELETE', '/_spritzer/faults')).status).toBe(204);
    expect((await call('POST', '/_spritzer/faults', { status: 500, sprite: 'nobody' })).status).toBe(201);
    await call('DELETE', '/_spritzer/faults');
    await expectIntact();
  });

  it('services form a needs chain up to the per-sprite cap; one more, too many needs, or a cycle is 400', async () => {
    await call('POST', '/v1/sprites', { name: 'chain' });
    await duringAttack('a needs chain of 12 services', async () => {
      for (let i = 0; i < 12; i++) {
        const body = { cmd: 'sleep', args: ['1000'], needs: i === 0 ? [] : [`s${i - 1}`] };
        expect((await call('PUT', `/v1/sprites/chain/services/s${i}?duration=0`, body)).status).toBe(200);
      }
    });
    const over = await call('PUT', '/v1/sprites/chain/services/s12?duration=0', { cmd: 'sleep', args: ['1'] });
    expect([over.status, over.text]).toEqual([400, 'too many services: at most 12 per sprite\n']);
    const needs = await call('PUT', '/v1/sprites/chain/services/s0?duration=0', { cmd: 'sleep', needs: Array(65).fill('s1') });
    expect(needs.status).toBe(400);
    const cycle = await call('PUT', '/v1/sprites/chain/services/s0?duration=0', { cmd: 'sleep', needs: ['s11'] });
    expect(cycle.status).toBe(400);
    expect(cycle.text).toBe(`dependency cycle: s0 -> ${Array.from({ length: 11 }, (_, i) => `s${11 - i}`).join(' -> ')} -> s0\n`);
    expect((await call('GET', '/v1/sprites/chain/services')).json).toHaveLength(12);
    await expectIntact();
  });

  it("a sprite's service definitions together hold at most 4 MiB: one more is 400; replacing or deleting one frees room", async () => {
    await call('POST', '/v1/sprites', { name: 'bigdefs' });
    const big = { cmd: 'sleep', args: ['1000', 'x'.repeat(900_000)] };
    for (let i = 0; i < 4; i++) expect((await call('PUT', `/v1/sprites/bigdefs/services/b${i}?duration=0`, big)).status).toBe(200);
    const over = await call('PUT', '/v1/sprites/bigdefs/services/b4?duration=0', big);
    expect(over.status).toBe(400);
    expect(over.text).toMatch(/^service definitions too large: \d+ bytes with this one, at most 4194304 per sprite\n$/);
    expect((await call('PUT', '/v1/sprites/bigdefs/services/b3?duration=0', big)).status).toBe(200); // its own size is not counted twice
    expect((await call('GET', '/v1/sprites/bigdefs/services')).json).toHaveLength(4);
    expect((await call('POST', '/v1/sprites/bigdefs/services/b3/stop')).status).toBe(200);
    expect((await call('DELETE', '/v1/sprites/bigdefs/services/b3')).status).toBe(204);
    expect((await call('PUT', '/v1/sprites/bigdefs/services/b4?duration=0', big)).status).toBe(200);
    await expectIntact();
  });
});
