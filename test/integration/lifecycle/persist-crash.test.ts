/**
 * `--data-dir` against crashes, with the real `spritzer` command in a child process: what a user expects of a
 * data dir (kill -9, start again, everything is there), a crash loop that kills the server at random
 * moments during writes, checkpoints and restores and then checks every acknowledged write, the lock that keeps a
 * second server off the dir, and the one-line start-up errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { api } from '../../support/server.ts';
import { killChildren, startSpritzer, stopSpritzer } from '../../support/spritzer-process.ts';

const BIN = fileURLToPath(new URL('../../../bin/spritzer.mjs', import.meta.url));
const dirs: string[] = [];
const children = new Set<ChildProcess>();
afterEach(() => {
  killChildren();
  for (const c of children) c.kill('SIGKILL');
  children.clear();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'spritzer-crash-'));
  dirs.push(d);
  return d;
}

/** Runs the command until it exits; resolves with its exit code and output. */
function runToExit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `spritzer --data-dir dir` on a free port (test/support/spritzer-process.ts); resolves once it listens. */
function start(dir: string, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  return startSpritzer(['--data-dir', dir, ...extra]);
}

/** SIGKILL and wait until the process is gone. */
async function crash(child: ChildProcess): Promise<void> {
  await stopSpritzer(child, 'SIGKILL');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('kill -9 and start again: everything is there', () => {
  it('brings back the sprite, the file, the checkpoint and the running service, and a restore still works', async () => {
    const dir = tempDir();
    let { child, url } = await start(dir);
    let call = api(url);
    expect((await call('POST', '/v1/sprites', { name: 'story' })).status).toBe(201);
    expect((await call('PUT', '/v1/sprites/story/fs/write?path=/home/sprite/hello.txt', 'hello')).status).toBe(200);
    expect((await call('POST', '/v1/sprites/story/checkpoint', {})).text).toContain('v1');
    expect((await call('PUT', '/v1/sprites/story/fs/write?path=/home/sprite/hello.txt', 'changed')).status).toBe(200);
    expect((await call('PUT', '/v1/sprites/story/services/web?duration=0', { cmd: 'sh', args: ['-c', 'sleep 1000'] })).status).toBe(200);
    await crash(child);

    ({ child, url } = await start(dir));
    call = api(url);
    expect((await call('GET', '/v1/sprites/story')).status).toBe(200);
    expect((await call('GET', '/v1/sprites/story/fs/read?path=/home/sprite/hello.txt')).text).toBe('changed');
    expect((await call('GET', '/v1/sprites/story/checkpoints')).json.map((c: { id: string }) => c.id)).toEqual(['Current', 'v1']);
    expect((await call('GET', '/v1/sprites/story/services/web')).json.state.status).toBe('running');
    expect((await call('POST', '/v1/sprites/story/checkpoints/v1/restore')).text).toContain('complete');
    expect((await call('GET', '/v1/sprites/story/fs/read?path=/home/sprite/hello.txt')).text).toBe('hello');
    await crash(child);
  }, 60_000);
});

/**
 * What a client knows of one sprite's `/home/sprite/w` directory: the files it was told are written, and the
 * checkpoints it was told exist (with the files at that moment). An operation cut by the crash is `pending` and
 * settled after the restart by what the server shows, which must be one of its two possible outcomes.
 */
interface Known {
  files: Map<string, string>;
  checkpoints: Map<string, Map<string, string>>;
  pending?: { kind: 'write'; path: string; content: string } | { kind: 'checkpoint' } | { kind: 'restore'; id: string };
}

async function filesOf(call: ReturnType<typeof api>, sprite: string): Promise<Map<string, string>> {
  const list = await call('GET', `/v1/sprites/${sprite}/fs/list?path=/home/sprite/w`);
  expect(list.status).toBe(200);
  const out = new Map<string, string>();
  for (const e of list.json.entries as Array<{ path: string }>) {
    out.set(e.path, (await call('GET', `/v1/sprites/${sprite}/fs/read?path=${encodeURIComponent(e.path)}`)).text);
  }
  return out;
}

const same = (a: Map<string, string>, b: Map<string, string>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

/** Checks the server against what the client knows, settling the operation the crash cut. */
async function verify(call: ReturnType<typeof api>, sprite: string, known: Known): Promise<void> {
  const files = await filesOf(call, sprite);
  const cps = ((await call('GET', `/v1/sprites/${sprite}/checkpoints`)).json as Array<{ id: string }>).map((c) => c.id).filter((id) => id !== 'Current');
  const p = known.pending;
  if (p?.kind === 'write') {
    const before = known.files.get(p.path);
    const now = files.get(p.path);
    expect([before, p.content]).toContain(now);
    if (now === undefined) known.files.delete(p.path);
    else known.files.set(p.path, now);
  } else if (p?.kind === 'checkpoint') {
    for (const id of cps) if (!known.checkpoints.has(id)) known.checkpoints.set(id, new Map(known.files));
  } else if (p?.kind === 'restore') {
    if (!same(files, known.files)) {
      expect(same(files, known.checkpoints.get(p.id)!)).toBe(true);
      known.files = new Map(files);
    }
  }
  known.pending = undefined;
  expect([...files].sort()).toEqual([...known.files].sort());
  expect(cps.sort()).toEqual([...known.checkpoints.keys()].sort());
}

/** One client: writes, checkpoints and restores in a loop until `stop` is set; every answer updates `known`. */
async function workload(
  call: ReturnType<typeof api>,
  sprite: string,
  known: Known,
  round: number,
  stop: { now: boolean; acked: number },
): Promise<number> {
  let acked = 0;
  for (let i = 0; !stop.now; i++) {
    const r = Math.random();
    try {
      if (r < 0.75 || known.checkpoints.size === 0) {
        const path = `/home/sprite/w/f${i % 40}`;
        const content = `${sprite}-${round}-${i}-${'x'.repeat(i % 7)}`;
        known.pending = { kind: 'write', path, content };
        const res = await call('PUT', `/v1/sprites/${sprite}/fs/write?path=${encodeURIComponent(path)}`, content);
        if (res.status !== 200) throw new Error(`write answered ${res.status}`);
        known.files.set(path, content);
      } else if (r < 0.88) {
        known.pending = { kind: 'checkpoint' };
        const res = await call('POST', `/v1/sprites/${sprite}/checkpoint`, {});
        const id = /Checkpoint (v\d+) created/.exec(res.text)?.[1];
        if (!id) throw new Error(`checkpoint answered ${res.status} ${res.text}`);
        known.checkpoints.set(id, new Map(known.files));
      } else {
        const ids = [...known.checkpoints.keys()];
        const id = ids[Math.floor(Math.random() * ids.length)]!;
        known.pending = { kind: 'restore', id };
        const res = await call('POST', `/v1/sprites/${sprite}/checkpoints/${id}/restore`);
        if (!res.text.includes('complete')) throw new Error(`restore answered ${res.status} ${res.text}`);
        known.files = new Map(known.checkpoints.get(id)!);
      }
      known.pending = undefined;
      acked += 1;
      stop.acked += 1;
    } catch (e) {
      if (stop.now) break; // the crash cut this one: it stays pending
      throw e;
    }
  }
  return acked;
}

describe('crash loop: kill -9 at random moments', () => {
  it('never loses an acknowledged write, checkpoint or restore', async () => {
    const dir = tempDir();
    const sprites = ['crash-a', 'crash-b', 'crash-c'];
    const known = new Map<string, Known>(sprites.map((s) => [s, { files: new Map(), checkpoints: new Map() }]));
    let { child, url } = await start(dir);
    for (const s of sprites) {
      const call = api(url);
      expect((await call('POST', '/v1/sprites', { name: s })).status).toBe(201);
      expect((await call('PUT', `/v1/sprites/${s}/fs/write?path=/home/sprite/w/.keep&mkdirParents=true`, '')).status).toBe(200);
      known.get(s)!.files.set('/home/sprite/w/.keep', '');
    }
    let total = 0;
    for (let round = 0; round < 4; round++) {
      const call = api(url);
      const stop = { now: false, acked: 0 };
      const loops = sprites.map((s) => workload(call, s, known.get(s)!, round, stop));
      // Some answers first (however slow the machine), then the kill at a random moment.
      for (let waited = 0; stop.acked < 2 * sprites.length && waited < 60_000; waited += 20) await sleep(20);
      await sleep(Math.random() * 400);
      stop.now = true;
      await crash(child);
      total += (await Promise.all(loops)).reduce((a, b) => a + b, 0);
      ({ child, url } = await start(dir));
      for (const s of sprites) await verify(api(url), s, known.get(s)!);
    }
    expect(total).toBeGreaterThanOrEqual(4 * 2 * sprites.length);
    await crash(child);
  }, 180_000);
});

describe('misuse at start', () => {
  it('a second server on the same data dir refuses with a message naming the dir and the first pid', async () => {
    const dir = tempDir();
    const first = await start(dir);
    const second = await runToExit(['--addr', '127.0.0.1:0', '--data-dir', dir]);
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toBe(
      `spritzer: data dir ${dir} is in use by another spritzer (pid ${first.child.pid}); stop it or pick another --data-dir`,
    );
    await crash(first.child);
  }, 60_000);

  it('a data dir that cannot be created names the path', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'not a dir');
    const r = await runToExit(['--addr', '127.0.0.1:0', '--data-dir', join(file, 'data')]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^spritzer: cannot use --data-dir ${file}/data: ENOTDIR`))]);
  }, 30_000);

  it('a port in use is one line and exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runToExit(['--addr', `127.0.0.1:${port}`]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`spritzer: 127.0.0.1:${port} is already in use; pass --addr\n`);
    } finally {
      blocker.close();
    }
  }, 30_000);

  it('a bad flag value names the flag', async () => {
    const r = await runToExit(['--stdin-grace', 'soon']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("--stdin-grace");
  }, 30_000);

  it('an empty data dir (SPRITZER_DATA_DIR=) is refused, not taken as the current directory', async () => {
    const r = await runToExit(['--addr', '127.0.0.1:0', '--data-dir', '']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("option '--data-dir <dir>' argument '' is invalid. must name a directory");
  }, 30_000);
});
