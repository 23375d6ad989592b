/**
 * The vitest config Stryker runs for one module: only that module's unit tests, named in
 * `SPRITZER_MUTATION_TESTS` (comma-separated globs, set by stryker.config.mjs from stryker/modules.mjs).
 * It is not the project's config (vitest.config.ts at the root runs every suite).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const tests = (process.env.SPRITZER_MUTATION_TESTS ?? '').split(',').filter(Boolean);
if (tests.length === 0) throw new Error('SPRITZER_MUTATION_TESTS is empty: run `npm run mutation`, not vitest, with this config');

export default defineConfig({ root: fileURLToPath(new URL('..', import.meta.url)), test: { include: tests } });
