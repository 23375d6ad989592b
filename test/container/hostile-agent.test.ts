/**
 * Root inside a container sprite writes hostile frames into the exec bridge that carries its agent's connection to
 * spritzer (the bridge's stdout pipe, with the bridge stopped), while another sprite runs execs: the scenario of
 * test/support/hostile-agent.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, TOKEN } from '../support/server.ts';
import { defaultDeps, startServer, type RunningServer } from '../../src/server/server.ts';
import { openMachineFactory } from '../../src/server/machines/index.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import { SequentialIds } from '../../src/server/core/ids.ts';
import { CONTAINER_BRIDGE_PY, hostileAgentScenario } from '../support/hostile-agent.ts';
import { announceSkip, cleanNamespace, testContainer } from './support.ts';

const NAMESPACE = 'ctest-hostile';
const NAMES = { hostile: 'c-hostile', bystander: 'c-bystander' };
const skip = await announceSkip('container hostile agent', {
  kubernetes: `the scenario recovers the failed sprite by restoring a checkpoint, and Kubernetes keeps none (501 checkpoints_unavailable)`,
});
let srv: RunningServer;

beforeAll(async () => {
  if (skip) return;
  await cleanNamespace(NAMESPACE);
  const clock = new SystemClock();
  const machines = await openMachineFactory('container', { clock, container: testContainer(NAMESPACE) });
  srv = await startServer(defaultDeps({ clock, ids: new SequentialIds(), machines, token: TOKEN }));
  for (const name of Object.values(NAMES)) {
    // A run that was killed leaves its containers, which this server adopted: start from fresh sprites.
    await api(srv.url)('DELETE', `/v1/sprites/${name}`);
    expect((await api(srv.url)('POST', '/v1/sprites', { name })).status).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  if (srv) for (const name of Object.values(NAMES)) await api(srv.url)('DELETE', `/v1/sprites/${name}`).catch(() => undefined);
  await srv?.close();
});

describe.skipIf(skip)('root inside a container sprite writing hostile frames into its exec bridge', () => {
  it('keeps other sprites served, holds no more than the bound, and marks the hostile sprite failed until a restore', async () => {
    await hostileAgentScenario(srv.url, CONTAINER_BRIDGE_PY, NAMES);
  }, 300_000);
});
