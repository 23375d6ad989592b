/**
 * The in-sprite API reaches only its own sprite (docs/security.md "The in-sprite API"), on the container engine: the
 * raw-socket attack corpus of test/support/in-sprite-scope-suite.ts.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { api, TOKEN } from '../support/server.ts';
import { defaultDeps, startServer, type RunningServer } from '../../src/server/server.ts';
import { openMachineFactory } from '../../src/server/machines/index.ts';
import { SystemClock } from '../../src/server/core/clock.ts';
import { SequentialIds } from '../../src/server/core/ids.ts';
import { inSpriteScopeSuite } from '../support/in-sprite-scope-suite.ts';
import { announceSkip, cleanNamespace, testContainer } from './support.ts';

const NAMESPACE = 'ctest-scope';
const NAMES = { attacker: 'scope-attacker', victim: 'scope-victim' };
const skip = await announceSkip('container in-sprite API scope');

describe.skipIf(skip)('the in-sprite API is pinned to its own sprite (container engine, raw socket)', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    await cleanNamespace(NAMESPACE);
    const clock = new SystemClock();
    const machines = await openMachineFactory('container', { clock, container: testContainer(NAMESPACE) });
    srv = await startServer(defaultDeps({ clock, ids: new SequentialIds(), machines, token: TOKEN }));
  }, 120_000);
  afterAll(async () => {
    if (srv) for (const name of Object.values(NAMES)) await api(srv.url)('DELETE', `/v1/sprites/${name}`).catch(() => undefined);
    await srv?.close();
  });
  inSpriteScopeSuite(() => srv.url, NAMES);
});
