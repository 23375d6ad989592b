/**
 * `sudo` in a sandbox sprite (test/support/sudo-suite.ts), through spritzer's public exec, fs and checkpoint API, as
 * the sprite user: root of the sprite's user namespace, never root on the host. What that root cannot do is
 * test/sandbox/escape.test.ts (run there through sudo too). The container engine runs the same suite
 * (test/container/sudo.test.ts).
 */
import { describe } from 'vitest';
import { sudoSuite } from '../support/sudo-suite.ts';
import { announceSkip, useSandboxServer } from './support.ts';

const skip = announceSkip('sandbox sudo');

describe.skipIf(skip)('sudo in a sandbox sprite', () => {
  sudoSuite(useSandboxServer());
});
