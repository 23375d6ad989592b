/**
 * The table of engines: each `--exec` name and how its factory opens. `shell` and `interpreter` are in-memory
 * machines running that exec engine; `sandbox` is a real Linux machine per sprite (bubblewrap + the in-sprite agent,
 * Linux and root only); `container` a container or pod per sprite. A new engine is one folder and one row. It owns
 * the list of engine names the CLI offers; it does not choose a default (the CLI does: `shell`).
 * @see docs/architecture.md "Machines and engines", docs/sandbox.md
 */
import { ENGINE_NAMES, type EngineName } from './memory/names.ts';
import { engineLoader } from './memory/load.ts';
import { MemoryMachineFactory } from './memory/machine.ts';
import type { MachineFactory } from './port.ts';
import type { MachineFactoryDeps } from '../config/machines.ts';

export type { MachineFactoryDeps } from '../config/machines.ts';

/** The `--exec` values this build can run. */
export const MACHINE_ENGINES = [...ENGINE_NAMES, 'sandbox', 'container'] as const;

/** One of {@link MACHINE_ENGINES}. */
export type MachineEngine = (typeof MACHINE_ENGINES)[number];

/**
 * Creates the factory of an in-memory engine (`shell`, `interpreter`) synchronously; the engine itself loads on the
 * factory's first sprite or `warm()` (machines/memory/load.ts). Throws a `TypeError` for another name.
 */
export function createMachineFactory(name: EngineName, deps: MachineFactoryDeps): MachineFactory {
  if (!(ENGINE_NAMES as readonly string[]).includes(name)) throw new TypeError(`unknown exec engine: ${String(name)} (expected one of ${ENGINE_NAMES.join(', ')})`);
  return new MemoryMachineFactory(engineLoader(name, deps), deps.clock);
}

/** How each `--exec` engine's factory is opened: in-memory engines at once, the others from their own folder on demand. */
const ENGINES: Record<MachineEngine, (deps: MachineFactoryDeps) => Promise<MachineFactory>> = {
  shell: async (deps) => createMachineFactory('shell', deps),
  interpreter: async (deps) => createMachineFactory('interpreter', deps),
  sandbox: async (deps) => (await import('./sandbox/index.ts')).openSandboxFactory(deps),
  container: async (deps) => (await import('./container/index.ts')).openContainerFactory(deps),
};

/**
 * Opens the factory of any engine. `sandbox` prepares its storage, base root and limits first and rejects with a
 * message naming what is missing (not Linux, not root, no bubblewrap, …); its module is loaded only then, as is the
 * container engine's.
 */
export async function openMachineFactory(name: MachineEngine, deps: MachineFactoryDeps): Promise<MachineFactory> {
  return ENGINES[name](deps);
}
