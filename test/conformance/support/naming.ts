/**
 * Names of the sprites the conformance suite creates: `spritzer-conf-<run>-<n>`. Shared by the fixtures and
 * by `scripts/sweep-remote.ts` (so it has no test-runner dependency). It names things; it creates nothing.
 */
import { randomBytes } from 'node:crypto';

/** Prefix of every sprite the suite creates (the sweep script deletes sprites with it). */
export const CONFORMANCE_PREFIX = 'spritzer-conf-';

/**
 * Identifies this run of one test file: base-36 time plus random hex, fresh per module instance, so test files
 * running in parallel (and runs on the same account) never collide.
 */
export const RUN_ID = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
