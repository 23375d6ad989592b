/**
 * The sandbox engine's entry for `openMachineFactory` (src/server/machines/index.ts): maps the CLI's settings (data
 * dir, prepared root, spares, id base, egress, resources) onto `SandboxMachineFactory.open`. It owns that mapping
 * only; the engine is in sandbox-machine.ts.
 * @see docs/sandbox.md
 */
import type { MachineFactory } from '../port.ts';
import type { MachineFactoryDeps } from '../../config/machines.ts';

/** Opens the sandbox engine; rejects with a message naming what is missing (not Linux, not root, no bubblewrap, …). */
export async function openSandboxFactory(deps: MachineFactoryDeps): Promise<MachineFactory> {
  const { SandboxMachineFactory } = await import('./sandbox-machine.ts');
  const r = deps.spriteResources;
  return SandboxMachineFactory.open({
    dataDir: deps.dataDir, persist: deps.persist, rootDir: deps.sandboxRoot, spares: deps.sandboxSpares, clock: deps.clock, logger: deps.logger,
    egress: { mode: deps.sandboxEgress ?? 'none', logger: deps.logger }, idBase: deps.sandboxUidBase,
    agentTimeoutMs: deps.agentTimeoutMs, maxStdinBytes: deps.maxStdinBytes,
    ...(r ? { limits: { memoryBytes: r.memoryBytes, pids: r.pids }, pidsTotal: r.pidsTotal, memoryTotalBytes: r.memoryTotalBytes, inotify: { instances: r.inotifyInstances, watches: r.inotifyWatches }, cpuYieldAfterMs: r.cpuYieldAfterMs } : {}),
  });
}
