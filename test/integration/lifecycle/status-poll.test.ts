/**
 * Status like production on the in-memory engines: the create answer says `cold`, and a client polling
 * `GET /v1/sprites/{name}` every 100 ms (on the injected clock) sees `cold` and then `running` once the first boot
 * completes, by the 2 s a cold wake takes at most (docs/fidelity.md "Status decay"); it never sees `warm` first, and
 * `last_started_at` is the boot time. An exec right after create makes it `running` at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, execQuery, startTestServer, wsExec, TOKEN } from '../../support/server.ts';
import type { RunningServer } from '../../../src/server/server.ts';
import { FakeClock } from '../../../src/server/core/clock.ts';
import { BOOT_AFTER_MS } from '../../../src/server/model/sprites.ts';
import { createAndPoll, distinct } from '../../support/status-poll.ts';

const POLL_MS = 100;

describe.each(['shell', 'interpreter'] as const)('status polling on the %s engine', (engine) => {
  let srv: RunningServer;
  const clock = new FakeClock();
  beforeAll(async () => {
    srv = await startTestServer(engine, { token: TOKEN, clock });
  });
  afterAll(() => srv.close());

  it('cold in the create answer, then running within 2 s of polling; last_started_at is the boot', async () => {
    const seen = await createAndPoll(srv.url, 'poller', async () => clock.advance(POLL_MS));
    expect(distinct(seen.statuses)).toEqual(['cold', 'running']);
    // The polls it took, on the injected clock: the boot (1 s), well inside the 2 s budget.
    expect(seen.statuses.length - 1).toBe(BOOT_AFTER_MS / POLL_MS);
    expect((seen.statuses.length - 1) * POLL_MS).toBeLessThanOrEqual(2_000);
    expect(Date.parse(seen.lastStartedAt!) - Date.parse(seen.createdAt)).toBe(BOOT_AFTER_MS);
  });

  it('an exec right after create makes the sprite running at the next poll', async () => {
    const call = api(srv.url);
    expect((await call('POST', '/v1/sprites', { name: 'busy' })).json.status).toBe('cold');
    const r = await wsExec(srv.url, `/v1/sprites/busy/exec?${execQuery(['echo', 'hi'])}`);
    expect(r.exitCode).toBe(0);
    expect((await call('GET', '/v1/sprites/busy')).json.status).toBe('running');
  });
});
