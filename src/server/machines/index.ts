/**
 * The machine factory for an `--exec` engine name: `shell` and `interpreter` are in-memory machines running that
 * exec engine; `sandbox` is a real Linux machine per sprite (bubblewrap + the in-sprite agent, Linux and root only).
 * It owns the list of engine names the CLI offers; it does not choose a default (the CLI does: `shell`).
 * @see docs/architecture.md "Machines and engines", docs/sandbox.md
 */
import type { Clock } from '../core/clock.ts';
import type { Logger } from 'pino';
import { ENGINE_NAMES, type EngineName } from './memory/names.ts';
import { engineLoader } from './memory/load.ts';
import { MemoryMachineFactory } from './memory/machine.ts';
import type { MachineFactory } from './port.ts';

/** The `--exec` values this build can run. */
export const MACHINE_ENGINES = [...ENGINE_NAMES, 'sandbox', 'container'] as const;

/** One of {@link MACHINE_ENGINES}. */
export type MachineEngine = (typeof MACHINE_ENGINES)[number];

/** What factories may need: the injected clock, the shell engine's stdin grace period (ms), the sandbox's places. */
export interface MachineFactoryDeps {
  clock: Clock;
  stdinGraceMs?: number;
  /** `--stdin-wait`: the shell engine's wait (ms) for the first stdin byte of a command that may read stdin. */
  stdinWaitMs?: number;
  /** Most stdin one exec may send (bytes); the shell engine refuses more (docs/limits.md). */
  maxStdinBytes?: number;
  /** The shell engine's limits (`--shell-max-commands`, `--shell-timeout`, docs/limits.md). */
  shellLimits?: import('../config/shell-limits.ts').ShellLimits;
  /** `--data-dir`: where sandbox layers and snapshots live (default: a temp dir removed at exit). */
  dataDir?: string;
  /** With `dataDir`: sandbox sprites' disks outlive the server (`--data-dir` persistence, src/server/store). */
  persist?: boolean;
  /** `--sandbox-root`: a prepared root used as the read-only base instead of the host's OS. */
  sandboxRoot?: string;
  /** `--sandbox-spares`: sandboxes kept booted ahead of creates (default 0 here; the CLI's default is 1). */
  sandboxSpares?: number;
  /** `--sprite-memory`, `--sprite-pids`, `--sandbox-pids-total`, `--sprite-inotify-*` (default: sized to the host). */
  spriteResources?: import('../config/sprite-resources.ts').SpriteResources;
  /** `--sandbox-uid-base`: first host uid of the sandbox sprites' id ranges. */
  sandboxUidBase?: number;
  /** `--sandbox-egress`: `none` (default: loopback only) or `gate` (src/server/machines/sandbox/egress/sprite-egress.ts). */
  sandboxEgress?: import('./sandbox/egress/sprite-egress.ts').SandboxEgressMode;
  logger?: Logger;
  /** `--container-runtime`, `--sprite-image`, `--namespace`, `--create-timeout` (ms), `--agent-image`: the container engine's settings. */
  container?: { runtime?: 'auto' | 'docker' | 'podman' | 'kubernetes'; image?: string; namespace?: string; createTimeoutMs?: number; agentImage?: string };
}

/**
 * Creates the factory of an in-memory engine (`shell`, `interpreter`) synchronously; the engine itself loads on the
 * factory's first sprite or `warm()` (machines/memory/load.ts). Throws a `TypeError` for another name.
 */
export function createMachineFactory(name: EngineName, deps: MachineFactoryDeps): MachineFactory {
  if (!(ENGINE_NAMES as readonly string[]).includes(name)) throw new TypeError(`unknown exec engine: ${String(name)} (expected one of ${ENGINE_NAMES.join(', ')})`);
  return new MemoryMachineFactory(engineLoader(name, deps), deps.clock);
}

/**
 * Opens the factory of any engine. `sandbox` prepares its storage, base root and limits first and rejects with a
 * message naming what is missing (not Linux, not root, no bubblewrap, …); the module is loaded only then.
 */
export async function openMachineFactory(name: MachineEngine, deps: MachineFactoryDeps): Promise<MachineFactory> {
  if (name === 'container') return (await import('./container/index.ts')).openContainerFactory(deps);
  if (name !== 'sandbox') return createMachineFactory(name, deps);
  const { SandboxMachineFactory } = await import('./sandbox/sandbox-machine.ts');
  const r = deps.spriteResources;
  return SandboxMachineFactory.open({
    dataDir: deps.dataDir, persist: deps.persist, rootDir: deps.sandboxRoot, spares: deps.sandboxSpares, clock: deps.clock, logger: deps.logger,
    egress: { mode: deps.sandboxEgress ?? 'none', logger: deps.logger }, idBase: deps.sandboxUidBase,
    ...(r ? { limits: { memoryBytes: r.memoryBytes, pids: r.pids }, pidsTotal: r.pidsTotal, inotify: { instances: r.inotifyInstances, watches: r.inotifyWatches } } : {}),
  });
}
