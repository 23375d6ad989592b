/**
 * The container engine's entry for `openMachineFactory` (src/server/machines/index.ts): maps the CLI's settings onto
 * `ContainerMachineFactory.open`. It owns that mapping only; the engine is in container-machine.ts.
 * @see docs/container.md
 */
import type { MachineFactory } from '../port.ts';
import type { MachineFactoryDeps } from '../../config/machines.ts';
import { ContainerMachineFactory } from './container-machine.ts';
import { parseCreateTimeout } from './cli.ts';
import { CONTAINER_RUNTIMES, type ContainerRuntimeName } from './runtime.ts';

/**
 * Opens the container engine with `deps.container` (runtime, image, namespace, create timeout in ms), the clock and
 * the logger. Rejects with a message naming what is missing (no daemon reachable, image absent and not pullable).
 */
export async function openContainerFactory(deps: MachineFactoryDeps): Promise<MachineFactory> {
  const r = deps.spriteResources;
  return ContainerMachineFactory.open({
    ...(deps.container ?? settingsFromEnv(process.env)), clock: deps.clock, logger: deps.logger, agentTimeoutMs: deps.agentTimeoutMs, maxStdinBytes: deps.maxStdinBytes,
    ...(r ? { limits: { memoryBytes: r.memoryBytes, pids: r.pids }, memoryTotalBytes: r.memoryTotalBytes, pidsTotal: r.pidsTotal, cpuYieldAfterMs: r.cpuYieldAfterMs } : {}),
  });
}

/**
 * The settings from `SPRITZER_CONTAINER_RUNTIME`, `SPRITZER_SPRITE_IMAGE`, `SPRITZER_NAMESPACE`,
 * `SPRITZER_AGENT_IMAGE` and `SPRITZER_CREATE_TIMEOUT` (a duration), for callers that pass none (the conformance harness); unset ones stay
 * at the engine's defaults. Throws a TypeError for a runtime that is not one of CONTAINER_RUNTIMES.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv): NonNullable<MachineFactoryDeps['container']> {
  const runtime = env.SPRITZER_CONTAINER_RUNTIME || undefined;
  if (runtime && !(CONTAINER_RUNTIMES as readonly string[]).includes(runtime)) throw new TypeError(`SPRITZER_CONTAINER_RUNTIME=${runtime}: use ${CONTAINER_RUNTIMES.join(', ')}`);
  return {
    runtime: runtime as ContainerRuntimeName | undefined,
    image: env.SPRITZER_SPRITE_IMAGE || undefined,
    namespace: env.SPRITZER_NAMESPACE || undefined,
    agentImage: env.SPRITZER_AGENT_IMAGE || undefined,
    createTimeoutMs: env.SPRITZER_CREATE_TIMEOUT ? parseCreateTimeout(env.SPRITZER_CREATE_TIMEOUT) : undefined,
  };
}
