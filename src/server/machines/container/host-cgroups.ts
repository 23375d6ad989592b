/**
 * What all container sprites use together, bounded on this host: the daemon puts every sprite's container in one
 * parent cgroup (`CgroupParent`), spritzer writes the memory and pids totals on that parent and makes busy sprites yield the
 * CPU there (as the sandbox engine does for its own cgroups: agent/cgroups.ts, agent/cpu-yield.ts). Possible only
 * where spritzer shares the daemon's cgroups: a local daemon (a unix socket), the cgroupfs driver, cgroup v1,
 * spritzer as root. Elsewhere each sprite keeps its own limits and the reason is logged once.
 *
 * Where the parent is, spritzer learns from the first container placed in it (`/proc/<pid>/cgroup`): a relative
 * `CgroupParent` is under the daemon's own cgroup in each controller, which need not be spritzer's.
 * @see docs/container.md "Limits", docs/limits.md
 */
import { readFile, rmdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type Docker from 'dockerode';
import { CgroupV1 } from '../agent/cgroups.ts';
import { CpuYield, DEFAULT_CPU_YIELD } from '../agent/cpu-yield.ts';

/** The key of the unified (cgroup2) hierarchy among a placement's paths (no controller names it). */
const UNIFIED = '(unified)';

/** The parent cgroup every spritzer server's container sprites share on a host (their totals are one). */
export const DEFAULT_CONTAINER_CGROUP_PARENT = 'spritzer-sprites';

/**
 * Why the daemon's cgroups are out of spritzer's reach, or undefined when they are within it. `info` is the
 * daemon's `GET /info` (`CgroupDriver`, `CgroupVersion`).
 */
export function unreachableReason(endpoint: string, info: { CgroupDriver?: string; CgroupVersion?: string }, uid = process.getuid?.()): string | undefined {
  if (!endpoint.startsWith('unix://')) return `the daemon is not local (${endpoint})`;
  if (uid !== 0) return 'spritzer does not run as root';
  if (info.CgroupDriver !== 'cgroupfs') return `the daemon's cgroup driver is ${info.CgroupDriver ?? 'unknown'}, not cgroupfs`;
  if (info.CgroupVersion !== undefined && info.CgroupVersion !== '1') return `the host has cgroup v${info.CgroupVersion}, not v1`;
  return undefined;
}

/**
 * The parent of a container's cgroups, per controller, from its `/proc/<pid>/cgroup` text (`4:memory:/a/b/<id>` →
 * `memory` → `/a/b`; a line naming several controllers gives each the path).
 */
export function parentPaths(procCgroup: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of procCgroup.split('\n')) {
    const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (!controllers || !path) continue;
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    for (const c of controllers.split(',')) paths.set(c, parent);
  }
  return paths;
}

/** The shared parent of the container sprites: its name, and the totals and CPU sampling once it is found. */
export class ContainerHostCgroups {
  private placedAt?: string;
  /** Where the daemon put the parent, per hierarchy, as the last container placed showed it. */
  private placedPaths?: Map<string, string>;
  private cgroups?: CgroupV1;
  private cpuYield?: CpuYield;

  constructor(
    /** `HostConfig.CgroupParent` of every container sprite. */
    readonly parent: string,
    private readonly opts: { memoryTotalBytes: number; pidsTotal?: number; cpuYieldAfterMs: number; warn: (reason: string) => void; onYield?: (cgroup: string, yielding: boolean) => void; procRoot?: string },
  ) {}

  /**
   * Called with the host pid of a container just started in the parent: the first time (and whenever the parent
   * turns out elsewhere) writes the memory total on it and starts sampling its containers' CPU. Never throws.
   */
  async place(pid: number | undefined): Promise<void> {
    if (!pid) return;
    const procCgroup = await readFile(`${this.opts.procRoot ?? '/proc'}/${pid}/cgroup`, 'utf8').catch(() => '');
    const paths = parentPaths(procCgroup);
    const key = JSON.stringify([...paths].sort());
    if (paths.size === 0 || key === this.placedAt) return;
    this.placedAt = key;
    // The daemon makes the parent in the unified (cgroup2) hierarchy too, where a hybrid host has one: line `0::`.
    const unified = /^0::(\/.+)\/[^/]+$/m.exec(procCgroup)?.[1];
    this.placedPaths = new Map(unified ? [...paths, [UNIFIED, unified]] : paths);
    const cgroups = await CgroupV1.at(paths, this.opts.procRoot);
    if (!cgroups) {
      this.opts.warn(`the memory total of all container sprites is not enforced: no cgroup v1 memory, pids and cpu for ${this.parent}`);
      return;
    }
    await cgroups.setTotal({ memoryBytes: this.opts.memoryTotalBytes }).catch((err: Error) => this.opts.warn(`the memory total of all container sprites was not set: ${err.message}`));
    if (this.opts.pidsTotal !== undefined) await cgroups.setTotal({ pids: this.opts.pidsTotal }).catch((err: Error) => this.opts.warn(`the pids total of all container sprites was not set: ${err.message}`));
    this.cgroups = cgroups;
    await this.cpuYield?.stop();
    this.cpuYield = this.opts.cpuYieldAfterMs > 0 ? new CpuYield(cgroups, { ...DEFAULT_CPU_YIELD, afterMs: this.opts.cpuYieldAfterMs }, undefined, this.opts.onYield) : undefined;
    this.cpuYield?.start();
  }

  /**
   * Stops the CPU sampling and removes the parent where no container is left in it (another server's keep it): in
   * the hierarchies spritzer writes to, and in the others the daemon made it in too (blkio, devices, freezer,
   * name=systemd…), which the daemon itself leaves behind empty.
   */
  async close(): Promise<void> {
    await this.cpuYield?.stop();
    await this.cgroups?.close();
    if (!this.placedPaths) return;
    const mounts = await readFile(`${this.opts.procRoot ?? '/proc'}/self/mounts`, 'utf8').catch(() => '');
    for (const [controller, path] of this.placedPaths) {
      // Only the parent itself, never a directory above it.
      if (basename(path) !== basename(this.parent)) continue;
      const mount = mounts
        .split('\n')
        .map((l) => l.split(' '))
        .find((f) => (controller === UNIFIED ? f[2] === 'cgroup2' : f[2] === 'cgroup' && f[3]?.split(',').includes(controller)))?.[1];
      if (mount) await rmdir(join(mount, path)).catch(() => undefined);
    }
  }
}

/**
 * The shared parent for a local daemon whose cgroups spritzer can reach, or undefined (with `warn` called once with
 * the reason) where it cannot: then containers are created without a parent and only their own limits hold.
 */
export async function openContainerHostCgroups(
  docker: Docker,
  endpoint: string,
  opts: { parent?: string; memoryTotalBytes: number; pidsTotal?: number; cpuYieldAfterMs: number; warn: (reason: string) => void; onYield?: (cgroup: string, yielding: boolean) => void },
): Promise<ContainerHostCgroups | undefined> {
  const info = (await docker.info().catch(() => ({}))) as { CgroupDriver?: string; CgroupVersion?: string };
  const reason = unreachableReason(endpoint, info);
  if (reason) {
    opts.warn(`the memory total of all container sprites is not enforced and busy sprites do not yield the CPU: ${reason}`);
    return undefined;
  }
  return new ContainerHostCgroups(opts.parent ?? DEFAULT_CONTAINER_CGROUP_PARENT, opts);
}
