/**
 * verified — the official `@fly/sprites` 0.1.0 SDK with `{controlMode: true}`: `exec`/`execFile` go through the
 * SDK's control pool (`/v1/sprites/{name}/control`, one op per socket at a time, sockets reused). Only the SDK's
 * public API is used. The SDK silently falls back to `/exec` when anything on the control path throws, so on the
 * emulator the request log (`GET /_spritzer/requests`) proves which path ran.
 * @see docs/wire-reference.md §5, §18.1
 */
import { beforeAll, describe, expect } from 'vitest';
import { ExecError, SpritesClient, type Sprite } from '@fly/sprites';
import { emulatorOnly, useConformance, verified } from './support/index.ts';

const { target, call, sprites } = useConformance();
let client: SpritesClient;
let sprite: Sprite;

beforeAll(async () => {
  client = new SpritesClient(target().token, { baseURL: target().baseUrl, controlMode: true });
  const name = sprites.name('sdk-ctl');
  sprites.track(name);
  sprite = await client.createSprite(name);
});

/** The WebSocket upgrades of this file's sprite since request id `after`, by channel (`control`, `exec`). */
async function upgradesSince(after: number): Promise<{ control: number; exec: number; last: number }> {
  const res = await call('GET', '/_spritzer/requests');
  const mine = (res.json.requests as Array<{ id: number; kind: string; path: string }>).filter((r) => r.id > after && r.kind === 'ws' && r.path.startsWith(`/v1/sprites/${sprite.name}/`));
  const last = Math.max(after, ...(res.json.requests as Array<{ id: number }>).map((r) => r.id));
  return {
    control: mine.filter((r) => r.path.split('?')[0].endsWith('/control')).length,
    exec: mine.filter((r) => r.path.split('?')[0].includes('/exec')).length,
    last,
  };
}

describe('controlMode: true', () => {
  verified.it('exec and execFile return stdout, stderr and exit code 0, with cwd, env and a TTY size', async () => {
    expect(await sprite.exec('echo through control')).toEqual({ stdout: 'through control\n', stderr: '', exitCode: 0 });
    expect(await sprite.execFile('sh', ['-c', 'echo out; echo err >&2'])).toEqual({ stdout: 'out\n', stderr: 'err\n', exitCode: 0 });
    expect((await sprite.exec('pwd', { cwd: '/tmp' })).stdout).toBe('/tmp\n');
    expect((await sprite.execFile('sh', ['-c', 'echo "$GREETING $WHO"'], { env: { GREETING: 'hi', WHO: 'sdk' } })).stdout).toBe('hi sdk\n');
    expect((await sprite.execFile('stty', ['size'], { tty: true, rows: 30, cols: 100 })).stdout).toBe('30 100\r\n');
  });

  verified.it('a non-zero exit rejects with ExecError carrying exitCode, stdout and stderr', async () => {
    const err = await sprite.execFile('sh', ['-c', 'echo out; echo err >&2; exit 42']).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExecError);
    expect(err).toMatchObject({ exitCode: 42, stdout: 'out\n', stderr: 'err\n' });
    // SDK LIMITATION: execFile catches every error of its control path, ExecError included, and runs the command
    // again over /exec; so a failing command runs twice in control mode (once per path).
  });

  emulatorOnly.it('runs over /control, not /exec, and reuses one socket for sequential commands', async () => {
    const before = await upgradesSince(0);
    for (let i = 0; i < 20; i++) expect((await sprite.exec(`echo ${i}`)).stdout).toBe(`${i}\n`);
    const after = await upgradesSince(before.last);
    expect(after.exec).toBe(0);
    expect(after.control).toBeLessThanOrEqual(1); // the pool may still hold the socket of an earlier test
  });

  emulatorOnly.it('commands in parallel get a socket each, all over /control', async () => {
    const before = await upgradesSince(0);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => sprite.execFile('sh', ['-c', `sleep 0.2; echo ${i}`])));
    expect(results.map((r) => r.stdout)).toEqual(Array.from({ length: 8 }, (_, i) => `${i}\n`));
    const after = await upgradesSince(before.last);
    expect(after.exec).toBe(0);
    expect(after.control).toBeGreaterThanOrEqual(1);
    expect(after.control).toBeLessThanOrEqual(8);
  });

  verified.it('what one command writes, the next one on the same pooled socket reads', async () => {
    await sprite.execFile('sh', ['-c', 'echo pooled > /tmp/pooled.txt']);
    expect((await sprite.exec('cat /tmp/pooled.txt')).stdout).toBe('pooled\n');
  });
});
