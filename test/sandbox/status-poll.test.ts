/**
 * Status like production on the sandbox engine: the create answer says `cold`; a client polling
 * `GET /v1/sprites/{name}` every 100 ms sees `cold` and then `running` (never `warm` first), and the server's own
 * `last_started_at` is at most 2 s after `created_at` (the cold wake of docs/fidelity.md "Status decay").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { createAndPoll, distinct } from '../support/status-poll.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox status polling');
let srv: RunningServer;

beforeAll(async () => {
  if (skip) return;
  srv = await startTestServer('sandbox', { token: TOKEN });
}, 60_000);
afterAll(async () => {
  await srv?.close();
});

describe.skipIf(skip)('status polling on the sandbox engine', () => {
  it('cold in the create answer, then running; last_started_at within 2 s of created_at', async () => {
    const seen = await createAndPoll(srv.url, 'poller', () => new Promise((r) => setTimeout(r, 100)));
    expect(distinct(seen.statuses)).toEqual(['cold', 'running']);
    const bootMs = Date.parse(seen.lastStartedAt!) - Date.parse(seen.createdAt);
    expect(bootMs).toBeGreaterThan(0);
    expect(bootMs).toBeLessThanOrEqual(2_000);
  }, 30_000);
});
