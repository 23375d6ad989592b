/**
 * The container engine's entry for `openMachineFactory` (src/server/machines/index.ts): maps the CLI's settings onto
 * `ContainerMachineFactory.open`. It owns that mapping only; the engine is in container-machine.ts.
 * @see issue 10, docs/container.md
 */
import type { MachineFactory } from '../types.ts';
import type { MachineFactoryDeps } from '../index.ts';
import { ContainerMachineFactory } from './container-machine.ts';

/**
 * Opens the container engine with `deps.container` (runtime, image, namespace, create timeout in ms), the clock and
 * the logger. Rejects with a message naming what is missing (no daemon reachable, image absent and not pullable).
 */
export async function openContainerFactory(deps: MachineFactoryDeps): Promise<MachineFactory> {
  return ContainerMachineFactory.open({ ...deps.container, clock: deps.clock, logger: deps.logger });
}
