/**
 * The machine factory for an `--exec` engine name: `shell` and `interpreter` are in-memory machines running that
 * exec engine. It owns the list of engine names the CLI offers; it does not choose a default (the CLI does: `shell`).
 * @see docs/architecture.md "Machines and engines"
 */
import type { Clock } from '../model/clock.ts';
import { createEngine, ENGINE_NAMES, type EngineName } from '../engines/index.ts';
import { MemoryMachineFactory } from './memory.ts';
import type { MachineFactory } from './types.ts';

/** The `--exec` values this build can run. */
export const MACHINE_ENGINES = [...ENGINE_NAMES] as const;

/** One of {@link MACHINE_ENGINES}. */
export type MachineEngine = (typeof MACHINE_ENGINES)[number];

/** What factories may need: the injected clock, and the shell engine's stdin grace period (ms). */
export interface MachineFactoryDeps {
  clock: Clock;
  stdinGraceMs?: number;
}

/** Creates the machine factory of engine `name`. Throws a `TypeError` for an unknown name. */
export function createMachineFactory(name: MachineEngine, deps: MachineFactoryDeps): MachineFactory {
  return new MemoryMachineFactory(createEngine(name as EngineName, deps), deps.clock);
}
