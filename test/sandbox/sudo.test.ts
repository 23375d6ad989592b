/**
 * `sudo` in a sandbox sprite (test/support/sudo-suite.ts), through spritzer's public exec, fs and checkpoint API, as
 * the sprite user: root of the sprite's user namespace, never root on the host. What that root cannot do is
 * test/sandbox/escape.test.ts (run there through sudo too). The container engine runs the same suite
 * (test/container/sudo.test.ts).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { startTestServer, TOKEN } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { agentBundle } from '../support/agent.ts';
import { sudoSuite } from '../support/sudo-suite.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox sudo');

describe.skipIf(skip)('sudo in a sandbox sprite', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    await agentBundle();
    srv = await startTestServer('sandbox', { token: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
  });
  sudoSuite(() => srv.url);
});
