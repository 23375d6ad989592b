/**
 * Root-level writes in a container sprite: the sandbox engine's suite (test/support/root-level-writes-suite.ts) on
 * the container engine, where the agent (root in the container) starts exec sessions through the same run-as helper
 * (docs/fidelity.md "Root-level writes"): the OpenAI Agents provider's, openenv's and the Claude Managed Agents
 * worker's start-up lines, exec sessions' capabilities, services without.
 */
import { describe } from 'vitest';
import { rootLevelWritesSuite } from '../support/root-level-writes-suite.ts';
import { announceSkip, useContainerServer } from './support.ts';

const skip = await announceSkip('container root-level writes', {
  kubernetes: `an exec session's capabilities (CHOWN, DAC_OVERRIDE, FOWNER, FSETID) come from the run-as helper, which the agent image on Kubernetes does not carry: exec sessions there run as the plain sprite user (docs/fidelity.md "Root-level writes")`,
});

describe.skipIf(skip)('root-level writes in a container sprite', () => {
  rootLevelWritesSuite(useContainerServer('ctest-rootwrites', ['oa', 'oe', 'cma', 'svc']), 120_000);
});
