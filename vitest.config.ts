import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The sandbox engine needs Linux and root (namespaces, overlay mounts); `.ci/run` installs bubblewrap. Elsewhere its
 * projects are left out, with the reason printed once.
 */
const sandboxReason = process.platform !== 'linux' ? 'not Linux' : process.getuid?.() !== 0 ? 'not root' : undefined;
if (sandboxReason) console.warn(`sandbox and conformance-sandbox projects skipped: the sandbox engine cannot run here (${sandboxReason})`);
/** The inspector's browser tests (test/ui) drive Debian's chromium; `.ci/run` installs it. */
const uiReason = existsSync('/usr/bin/chromium') ? undefined : '/usr/bin/chromium is absent (apt-get install chromium)';
if (uiReason) console.warn(`ui project skipped: ${uiReason}`);
const conformance = {
  include: ['test/conformance/**/*.test.ts'],
  setupFiles: ['test/support/setup-ws.ts'],
  testTimeout: 30000,
  hookTimeout: 30000,
};

/**
 * Projects: unit (src/**), integration (server on port 0), sandbox (real namespaces), conformance (black box,
 * shell engine) and conformance-sandbox (the same suite, the official SDK included, on the sandbox engine).
 */
export default defineConfig({
  test: {
    // vitest's default in a run is one worker fewer than the cores: one worker on a 2-core machine, where most test
    // files spend their time waiting on servers, sprites and child processes. Two files at a time there ran the
    // integration project in 160 s instead of 243 s (one after the other, same load), with the same results.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'shims/**/*.test.ts', 'bench/**/*.test.ts', 'test/external/differential/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          // The packed SDK (test/package/sdk-pack) needs no daemon and no native build: it runs here, in `npm test`.
          include: ['test/integration/**/*.test.ts', 'test/package/sdk-pack/**/*.test.ts'],
          setupFiles: ['test/support/setup-ws.ts'],
          testTimeout: 20000,
        },
      },
      // Property-based fuzzing: REST requests from spec/openapi.yaml and exec WebSocket frames,
      // fixed seeds (SPRITZER_FUZZ_RUNS changes the number of runs).
      {
        test: {
          name: 'fuzz',
          include: ['test/fuzz/**/*.test.ts'],
          setupFiles: ['test/support/setup-ws.ts'],
          testTimeout: 120000,
          hookTimeout: 30000,
        },
      },
      ...(sandboxReason ? [] : [{
        test: {
          name: 'sandbox',
          include: ['test/sandbox/**/*.test.ts'],
          setupFiles: ['test/support/setup-ws.ts'],
          testTimeout: 60000,
          hookTimeout: 60000,
        },
      }, {
        test: { name: 'conformance-sandbox', ...conformance, env: { SPRITZER_CONFORMANCE_EXEC: 'sandbox' } },
      }, {
        // The integration suites where the engine matters, on the sandbox engine (their shell-only parts skip).
        test: {
          name: 'integration-sandbox',
          include: [
            'test/integration/api/{fs,checkpoints,services}.test.ts',
            'test/integration/exec/{exec,control,control-fs}.test.ts',
            'test/integration/lifecycle/testing-helper-cleanup.test.ts',
          ],
          setupFiles: ['test/support/setup-ws.ts'],
          env: { SPRITZER_INTEGRATION_EXEC: 'sandbox' },
          testTimeout: 60000,
          hookTimeout: 60000,
        },
      }]),
      { test: { name: 'conformance', ...conformance } },
      // The conformance suite on the container engine, when `npm run test:container` has a daemon and an image.
      ...((process.env.DOCKER_HOST || process.env.CONTAINER_HOST) && process.env.SPRITZER_TEST_IMAGE
        ? [{
            test: {
              name: 'conformance-container',
              ...conformance,
              env: {
                SPRITZER_CONFORMANCE_EXEC: 'container',
                SPRITZER_CONTAINER_RUNTIME: process.env.SPRITZER_TEST_RUNTIME === 'podman' ? 'podman' : 'docker',
                SPRITZER_SPRITE_IMAGE: process.env.SPRITZER_TEST_IMAGE,
                SPRITZER_NAMESPACE: 'ctest-conf',
              },
            },
          }]
        : []),
      // The container engine: `npm run test:container` starts dockerd and builds the image; without a
      // daemon every file says why it skips.
      {
        test: {
          name: 'container',
          include: ['test/container/**/*.test.ts'],
          setupFiles: ['test/support/setup-ws.ts'],
          testTimeout: 120000,
          hookTimeout: 180000,
        },
      },
      // The container engine's Kubernetes runtime against a fake API server (test/k8s/fake-apiserver.ts): no daemon.
      { test: { name: 'k8s', include: ['test/k8s/**/*.test.ts'], testTimeout: 60000, hookTimeout: 60000 } },
      // The package as users get it: the Dockerfile built and run on the test daemon (`npm run
      // test:container`; without one the file says why it skips) and the packed tarball (`npm run test:pack`).
      {
        test: {
          name: 'image',
          include: ['test/package/image/**/*.test.ts'],
          setupFiles: ['test/support/setup-ws.ts'],
          testTimeout: 120000,
          hookTimeout: 900000,
        },
      },
      ...(uiReason ? [] : [{ test: { name: 'ui', include: ['test/ui/**/*.test.ts'], testTimeout: 30000, hookTimeout: 60000 } }]),
    ],
  },
});
