/**
 * `sudo` in a container sprite: the sandbox engine's suite (test/support/sudo-suite.ts) on the container engine,
 * where the agent (root in the container) installs and serves the same shim (docs/fidelity.md "Sandbox: `sudo`").
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { api } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { sudoSuite } from '../support/sudo-suite.ts';
import { announceSkip, cleanNamespace, startContainerServer } from './support.ts';

const NAMESPACE = 'ctest-sudo';
const SPRITE = 'su';
const skip = await announceSkip('container sudo');
const servers = new Set<RunningServer>();

describe.skipIf(skip)('sudo in a container sprite', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    await cleanNamespace(NAMESPACE);
    ({ srv } = await startContainerServer(NAMESPACE, servers));
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) {
      await api(s.url)('DELETE', `/v1/sprites/${SPRITE}`).catch(() => undefined);
      await s.close().catch(() => undefined);
    }
  });
  sudoSuite(() => srv.url, SPRITE, 120_000);
});
