/**
 * The container image as users run it: the repository's Dockerfile built on the test daemon of
 * `npm run test:container`, with no registry. The context is the packed package plus this checkout's compiled
 * production node_modules (scripts/image-context.ts), and both bases are the debootstrap test image, which holds
 * this host's node at /usr/local/bin/node. The container then serves on a loopback port: health, a sprite's create,
 * exec and fs round trip, the image's own HEALTHCHECK, and a non-root process. Everything it builds or starts
 * (context dir, image, container) is removed afterwards.
 * The daemon runs with `--bridge none` (scripts/test-container.sh: no private-range addresses), so the container
 * shares the host's network with SPRITZER_ADDR on a free loopback port instead of `-p`.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { containerSkipReason, TEST_IMAGE, TEST_RUNTIME } from '../../container/support.ts';
import { api, execQuery, TOKEN, wsExec } from '../../support/server.ts';
import { prepareImageContext } from '../../../scripts/image-context.ts';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const tag = `spritzer-image-test:${process.pid}`;
const name = `spritzer-image-test-${process.pid}`;

const reason = TEST_RUNTIME === 'podman' ? 'the image test drives the docker CLI (SPRITZER_TEST_RUNTIME=podman)' : await containerSkipReason();
if (reason) console.warn(`image tests skipped: ${reason}`);

/** `docker …` on the test daemon; resolves with stdout (trimmed). */
async function docker(...args: string[]): Promise<string> {
  const { stdout } = await run('docker', args, { maxBuffer: 64 << 20 });
  return stdout.trim();
}

/** A port nobody listens on right now (the container binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Polls `probe` every 200 ms until it returns a value or `ms` pass; throws with the last error. */
async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not happen within ${ms} ms${last ? `: ${(last as Error).message}` : ''}`);
}

describe.skipIf(!!reason)('the container image (Dockerfile, offline build)', () => {
  let ctx: string;
  let base: string;
  let built = false;
  let started = false;

  beforeAll(async () => {
    ctx = mkdtempSync(join(tmpdir(), 'spritzer-image-ctx-'));
    prepareImageContext(ctx, { tarball: process.env.SPRITZER_TEST_TARBALL, repo });
    // The legacy builder and BuildKit both honour --network none: the build stage must not need the network.
    await docker('build', '--network', 'none', '-q', '-t', tag, '--build-arg', `BUILD_BASE=${TEST_IMAGE}`, '--build-arg', `BASE=${TEST_IMAGE}`, ctx);
    built = true;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The image's own HEALTHCHECK command, polled every second instead of every ten.
    await docker('run', '-d', '--name', name, '--network', 'host', '-e', `SPRITZER_ADDR=127.0.0.1:${port}`, '-e', `SPRITZER_TOKEN=${TOKEN}`,
      '--health-interval', '1s', '--health-start-period', '30s', tag);
    started = true;
  }, 600_000);

  afterAll(async () => {
    if (started) await docker('rm', '-f', name).catch(() => undefined);
    if (built) await docker('rmi', '-f', tag).catch(() => undefined);
    if (ctx) rmSync(ctx, { recursive: true, force: true });
  });

  it('serves /_spritzer/health as soon as it starts', async () => {
    const health = await until(async () => {
      const res = await fetch(`${base}/_spritzer/health`);
      return res.ok ? ((await res.json()) as { status: string; engine: string }) : undefined;
    }, 30_000, 'a healthy answer from the container').catch(async (err) => {
      throw new Error(`${(err as Error).message}\n--- container log ---\n${await docker('logs', name).catch(() => '')}`);
    });
    expect(health.status).toBe('ok');
    expect(health.engine).toBe('shell');
  }, 60_000);

  it('creates a sprite, runs a command in it and round-trips a file, under its token', async () => {
    const call = api(base);
    expect((await api(base, 'wrong-token')('GET', '/v1/sprites')).status).toBe(401);
    expect((await call('POST', '/v1/sprites', { name: 'boxed' })).status).toBe(201);
    const exec = await wsExec(base, `/v1/sprites/boxed/exec?${execQuery(['sh', '-c', 'echo from-image > /home/sprite/out.txt; echo done'])}`);
    expect(exec.stdout).toBe('done\n');
    expect(exec.exitCode).toBe(0);
    const read = await call('GET', '/v1/sprites/boxed/fs/read?path=/home/sprite/out.txt');
    expect(read.status).toBe(200);
    expect(read.text).toBe('from-image\n');
    expect((await call('PUT', '/v1/sprites/boxed/fs/write?path=/home/sprite/in.txt', 'to-image\n')).status).toBe(200);
    const cat = await wsExec(base, `/v1/sprites/boxed/exec?${execQuery(['cat', '/home/sprite/in.txt'])}`);
    expect(cat.stdout).toBe('to-image\n');
  }, 60_000);

  it('reports healthy through the HEALTHCHECK the Dockerfile declares', async () => {
    expect(await docker('inspect', '--format', '{{json .Config.Healthcheck.Test}}', name)).toContain('/_spritzer/health');
    const status = await until(async () => {
      const s = await docker('inspect', '--format', '{{.State.Health.Status}}', name);
      return s === 'healthy' || s === 'unhealthy' ? s : undefined;
    }, 45_000, 'a health verdict');
    expect(status).toBe('healthy');
  }, 60_000);

  it('runs the server as a non-root user', async () => {
    expect(await docker('inspect', '--format', '{{.Config.User}}', name)).toBe('1000:1000');
    // PID 1 is `node bin/spritzer.mjs` itself (no init): its real and effective uids are both 1000.
    const status = await docker('exec', name, 'cat', '/proc/1/status');
    expect(status).toMatch(/^Uid:\s+1000\s+1000\s/m);
    expect(await docker('exec', name, 'cat', '/proc/1/cmdline')).toContain('bin/spritzer.mjs');
  }, 30_000);
});

describe('compose.yaml', () => {
  it('is a valid compose file (`docker compose config`), where the compose plugin exists', async (test) => {
    const plugin = await run('docker', ['compose', 'version']).then(() => true, () => false);
    if (!plugin) {
      console.warn('compose.yaml not validated: the `docker compose` plugin is not installed here');
      test.skip();
      return;
    }
    const { stdout } = await run('docker', ['compose', '-f', join(repo, 'compose.yaml'), 'config'], { cwd: repo });
    expect(stdout).toContain('4290');
  }, 30_000);
});
