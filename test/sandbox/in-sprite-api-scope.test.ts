/**
 * The in-sprite API reaches only its own sprite (docs/security.md "The in-sprite API"), on the sandbox engine: the
 * raw-socket attack corpus of test/support/in-sprite-scope-suite.ts.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { startTestServer, TOKEN } from '../support/server.ts';
import type { RunningServer } from '../../src/server/server.ts';
import { inSpriteScopeSuite } from '../support/in-sprite-scope-suite.ts';
import { announceSkip } from './support.ts';

const skip = announceSkip('sandbox in-sprite API scope');

describe.skipIf(skip)('the in-sprite API is pinned to its own sprite (sandbox engine, raw socket)', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer('sandbox', { token: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
  });
  inSpriteScopeSuite(() => srv.url);
});
