/**
 * The conformance target's lifetime in a test file: the server chosen by `target-config.ts` from the
 * environment, or spritzer started in-process on port 0 (shell engine, fixed token) when none is named.
 * It owns starting and stopping, not the choice rules nor what tests do with the target.
 * @see docs/architecture.md "Tests"
 */
import { beforeAll, afterAll } from 'vitest';
import { openMachineFactory, MACHINE_ENGINES, type MachineEngine } from '../../../src/server/machines/index.ts';
import { SystemClock } from '../../../src/server/core/clock.ts';
import { defaultDeps, startServer, type RunningServer } from '../../../src/server/server.ts';
import { EMULATOR_TOKEN, resolveTarget, type Target, type TargetConfig } from './target-config.ts';

export { EMULATOR_TOKEN, isLoopback, resolveTarget, type Target, type TargetConfig } from './target-config.ts';

/** The target of this run, resolved once per test file from `process.env`. */
export const TARGET_CONFIG: TargetConfig = resolveTarget(process.env);

/** True when the suite runs against a server named by `SPRITES_BASE_URL`. */
export const IS_REMOTE = TARGET_CONFIG.kind === 'remote';

/** The engine the in-process emulator runs: `SPRITZER_CONFORMANCE_EXEC` (the `conformance-sandbox` project sets `sandbox`), else `shell`. */
export const EMULATOR_ENGINE: MachineEngine = engineFrom(process.env.SPRITZER_CONFORMANCE_EXEC);

function engineFrom(value: string | undefined): MachineEngine {
  if (value === undefined || value === '') return 'shell';
  if (!(MACHINE_ENGINES as readonly string[]).includes(value)) throw new Error(`SPRITZER_CONFORMANCE_EXEC=${value}: not an engine`);
  return value as MachineEngine;
}

/** Starts spritzer in-process as a user would run it (`spritzer --exec <engine> --token …`), on port 0. */
export async function startEmulator(): Promise<RunningServer> {
  const clock = new SystemClock();
  const machines = await openMachineFactory(EMULATOR_ENGINE, { clock });
  return startServer(defaultDeps({ clock, machines, token: EMULATOR_TOKEN }));
}

/**
 * Registers beforeAll/afterAll hooks that provide the target to the calling test file and returns a getter.
 * The in-process emulator lives for one test file.
 */
export function useTarget(): () => Target {
  let target: Target | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    if (TARGET_CONFIG.kind === 'remote') {
      target = { kind: 'remote', baseUrl: TARGET_CONFIG.baseUrl!, token: TARGET_CONFIG.token, remote: true };
      return;
    }
    server = await startEmulator();
    target = { kind: 'emulator', baseUrl: server.url, token: TARGET_CONFIG.token, remote: false };
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!target) throw new Error('the conformance target is not started yet (use it inside tests or hooks)');
    return target;
  };
}
