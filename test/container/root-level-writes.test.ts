/**
 * Root-level writes in a container sprite: the sandbox engine's suite (test/support/root-level-writes-suite.ts) on
 * the container engine, where the agent (root in the container) starts exec sessions through the same run-as helper
 * (docs/fidelity.md "Root-level writes"): the OpenAI Agents provider's, openenv's and the Claude Managed Agents
 * worker's start-up lines, exec sessions' capabilities, services without.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { api } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { rootLevelWritesSuite } from '../support/root-level-writes-suite.ts';
import { announceSkip, cleanNamespace, startContainerServer } from './support.ts';

const NAMESPACE = 'ctest-rootwrites';
const skip = await announceSkip('container root-level writes');
const servers = new Set<RunningServer>();

describe.skipIf(skip)('root-level writes in a container sprite', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    await cleanNamespace(NAMESPACE);
    ({ srv } = await startContainerServer(NAMESPACE, servers));
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) {
      for (const name of ['oa', 'oe', 'cma', 'svc']) await api(s.url)('DELETE', `/v1/sprites/${name}`).catch(() => undefined);
      await s.close().catch(() => undefined);
    }
  });
  rootLevelWritesSuite(() => srv.url, 120_000);
});
