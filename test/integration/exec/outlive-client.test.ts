/**
 * Commands that outlive their client on the shell engine, in real time (test/support/outlive-suite.ts): started
 * with `max_run_after_disconnect=0`, still listed past the default linger, attached, killed, and ended by their
 * linger, their exit, a restore or a restart; and a restart of spritzer on its data dir lists none of them after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { RandomIds } from '../../../src/server/core/ids.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { DataDirStore } from '../../../src/server/store/store.ts';
import { api, startTestServer, TOKEN } from '../../support/server.ts';
import { outliveSuite, sessionsOf, startAndDrop, type LongCommand } from '../../support/outlive-suite.ts';

/** A command that runs until it is ended (one shell-engine `sleep` lasts an hour at most, so a loop of them). */
const sleeper = (): LongCommand => ({ argv: ['sh', '-c', 'echo serving; while :; do sleep 3600; done'], banner: /serving/ });

describe('a command that outlives its client (shell engine)', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer('shell', { token: TOKEN });
    expect((await api(srv.url)('POST', '/v1/sprites', { name: 'box' })).status).toBe(201);
  });
  afterAll(() => srv.close());
  outliveSuite(() => srv.url, 'box', sleeper);
});

describe('a restart of spritzer on its data dir (shell engine)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spritzer-outlive-'));
  const running = new Set<RunningServer>();
  afterAll(async () => {
    for (const s of running) await s.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  const boot = async () => {
    const clock = new SystemClock();
    const store = DataDirStore.open({ dir, clock, logger: pino({ level: 'silent' }) });
    const srv = await startTestServer('shell', { clock, store, ids: new RandomIds(), token: TOKEN });
    running.add(srv);
    return srv;
  };

  it('ends what the engine cannot keep: after it, no session is listed or found', async () => {
    const first = await boot();
    expect((await api(first.url)('POST', '/v1/sprites', { name: 'keep' })).status).toBe(201);
    const id = await startAndDrop(first.url, 'keep', sleeper());
    expect((await sessionsOf(first.url, 'keep')).get(id)).toMatchObject({ is_active: false });
    await first.close();
    running.delete(first);

    const second = await boot();
    expect((await api(second.url)('GET', '/v1/sprites/keep')).status).toBe(200);
    expect((await sessionsOf(second.url, 'keep')).size).toBe(0);
    expect((await api(second.url)('GET', `/v1/sprites/keep/exec/${id}`)).status).toBe(404);
  });
});
