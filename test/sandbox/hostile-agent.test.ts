/**
 * Root inside a sandbox sprite takes over its agent's connection to spritzer (`sudo`, then `pidfd_open` +
 * `pidfd_getfd` on the agent, and SIGSTOP so the real agent writes nothing in between) and writes hostile frames on
 * it, while another sprite runs execs: the scenario of test/support/hostile-agent.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, TOKEN } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { hostileAgentScenario, SANDBOX_TAKEOVER_PY } from '../support/hostile-agent.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('hostile agent');
let srv: RunningServer;

beforeAll(async () => {
  if (skip) return;
  srv = await startTestServer('sandbox', { token: TOKEN });
  for (const name of ['hostile', 'bystander']) expect((await api(srv.url)('POST', '/v1/sprites', { name })).status).toBe(201);
});
afterAll(async () => {
  await srv?.close();
});

describe.skipIf(skip)('root inside a sandbox sprite writing hostile frames on its agent connection', () => {
  it('keeps other sprites served, holds no more than the bound, and marks the hostile sprite failed until a restore', async () => {
    await hostileAgentScenario(srv.url, SANDBOX_TAKEOVER_PY);
  });
});
