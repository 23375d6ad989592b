/**
 * StrykerJS options for ONE module of stryker/modules.mjs, chosen by `SPRITZER_MUTATION_MODULE` (its source path).
 * scripts/mutation.mjs sets it and runs Stryker once per module; this file only builds the options.
 * @see https://stryker-mutator.io/docs/stryker-js/configuration/ ; README.md "Mutation testing"
 */
import { MODULES, moduleSlug } from './stryker/modules.mjs';

const file = process.env.SPRITZER_MUTATION_MODULE;
const mod = MODULES.find((m) => m.file === file);
if (!mod) throw new Error(`SPRITZER_MUTATION_MODULE=${file ?? ''} is not in stryker/modules.mjs: run \`npm run mutation\``);
const slug = moduleSlug(mod.file);
process.env.SPRITZER_MUTATION_TESTS = mod.tests.join(',');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [mod.file],
  testRunner: 'vitest',
  vitest: { configFile: 'stryker/vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  concurrency: 2,
  incremental: true,
  incrementalFile: `stryker/incremental/${slug}.json`,
  thresholds: { high: 95, low: 90, break: mod.break ?? 90 },
  reporters: ['clear-text', 'progress', 'json'],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  jsonReporter: { fileName: `.tmp/mutation/${slug}.json` },
  tempDirName: '.tmp/stryker',
  cleanTempDir: 'always',
  // Only what the unit tests import is needed in the sandbox.
  // .cache holds the container tests' image and docker data root (npm run test:container): never copy it.
  ignorePatterns: ['test/integration', 'test/conformance', 'test/package/sdk-pack', 'bench', 'docs', 'generated/*.md', '.tmp', '.cache'],
  timeoutMS: 10000,
};
