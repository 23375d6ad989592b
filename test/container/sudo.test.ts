/**
 * `sudo` in a container sprite: the sandbox engine's suite (test/support/sudo-suite.ts) on the container engine,
 * where the agent (root in the container) installs and serves the same shim (docs/fidelity.md "Sandbox: `sudo`").
 */
import { describe } from 'vitest';
import { sudoSuite } from '../support/sudo-suite.ts';
import { announceSkip, useContainerServer } from './support.ts';

const SPRITE = 'su';
const skip = await announceSkip('container sudo');

describe.skipIf(skip)('sudo in a container sprite', () => {
  sudoSuite(useContainerServer('ctest-sudo', [SPRITE]), SPRITE, 120_000);
});
