import { defineConfig } from 'vitest/config';

/** Three projects: unit (src/**), integration (server on port 0), conformance (black box). */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          setupFiles: ['test/support/setup-ws.ts'],
          testTimeout: 20000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['test/conformance/**/*.test.ts'],
          setupFiles: ['test/support/setup-ws.ts'],
          testTimeout: 30000,
          hookTimeout: 30000,
        },
      },
    ],
  },
});
