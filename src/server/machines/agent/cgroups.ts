/**
 * Per-sprite resource limits: cgroups v1 children (memory, pids, cpu) created under this process's own cgroup
 * in each controller (read from /proc/self/cgroup; nothing is ever moved out of it), else rlimits applied with
 * `prlimit`. It creates, fills, empties and removes cgroup directories; joining one is done by the launcher's
 * wrapper shell (it writes its own pid to `cgroup.procs` before anything else runs). The layout, per controller:
 * `<own cgroup>/spritzer/` (shared by every spritzer server started in the same cgroup: the totals) →
 * `<server tag>/` (one server) → `<sprite>/`. The container engine uses the same class on the parent its daemon put
 * the containers in (`CgroupV1.at`; container/host-cgroups.ts) for the totals and the CPU yield.
 */
import { readdirSync, rmdirSync } from 'node:fs';
import { mkdir, readFile, readdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Limits of one sprite. Every field is optional; a missing one is unlimited. */
export interface SandboxLimits {
  /** Memory (RSS + page cache) in bytes. cgroup `memory.limit_in_bytes`; rlimit fallback: RLIMIT_DATA. */
  memoryBytes?: number;
  /** Number of processes/threads. cgroup `pids.max`; rlimit fallback: RLIMIT_NPROC (per uid on the host). */
  pids?: number;
  /** CPU time as a number of cores (e.g. 0.5). cgroup `cpu.cfs_quota_us`; no rlimit fallback. */
  cpus?: number;
}

/** How limits are enforced: `cgroup` (v1 here), `rlimit`, or `none` when no limit was asked for. */
export type LimitsMode = 'cgroup' | 'rlimit' | 'none';

const CONTROLLERS = ['memory', 'pids', 'cpu'] as const;
/** `cpuacct` (each sprite's CPU time, for yielding busy sprites: cpu-yield.ts) is used where mounted, never required. */
const OPTIONAL = ['cpuacct'] as const;
type Controller = (typeof CONTROLLERS)[number] | (typeof OPTIONAL)[number];
const CFS_PERIOD_US = 100_000;
/** The directory under a process's own cgroup that every spritzer server started in that cgroup shares. */
export const DEFAULT_TOTALS_GROUP = 'spritzer';

/** One sprite's cgroups: a directory per controller. */
export interface SpriteCgroup {
  /** The `cgroup.procs` files the launcher's wrapper writes its pid to (one per controller). */
  readonly procsFiles: string[];
  /** Host pids currently in the sprite's cgroups. */
  pids(): Promise<number[]>;
  /** The sprite's `pids.max` and `pids.current` files (bound read-only into a sandbox: the agent's headroom check). */
  readonly pidsFiles: { max: string; current: string };
  /** Removes the directories (they must be empty: kill and wait first). Idempotent. */
  remove(): Promise<void>;
}

/** The cgroup v1 hierarchy this process may create children in, one parent directory per controller. */
export class CgroupV1 {
  private constructor(
    private readonly parents: Partial<Record<Controller, string>> & Record<(typeof CONTROLLERS)[number], string>,
    private readonly shared: Partial<Record<Controller, string>>,
  ) {}

  /** Every controller this server has a parent in, with that parent (a controller mounted with another once). */
  private get dirs(): Array<[Controller, string]> {
    const seen = new Set<string>();
    return (Object.entries(this.parents) as Array<[Controller, string]>).filter(([, d]) => !seen.has(d) && seen.add(d));
  }

  /**
   * Finds the v1 mounts of memory, pids and cpu and this process's own cgroup in each (`/proc/self/cgroup`),
   * and makes a writable parent `<group>/<tag>` under each (`group`: {@link DEFAULT_TOTALS_GROUP}, the directory
   * whose totals the servers in it share; tests name their own). Resolves `undefined` when any controller is
   * missing (a v2-only or restricted host) or not writable; then the caller falls back to rlimits.
   * @see docs/fidelity.md "Sandbox limits"
   */
  static async open(tag: string, group = DEFAULT_TOTALS_GROUP, procRoot = '/proc'): Promise<CgroupV1 | undefined> {
    const own = await readFile(join(procRoot, 'self/cgroup'), 'utf8').catch(() => '');
    return CgroupV1.make(procRoot, (c, mount) => {
      const path = own.split('\n').map((l) => l.split(':')).find((f) => f[1]?.split(',').includes(c))?.[2];
      return path === undefined ? undefined : { shared: join(mount, path, group), parent: join(mount, path, group, tag) };
    });
  }

  /**
   * The existing cgroups at `paths` (each controller's path in its hierarchy, as `/proc/<pid>/cgroup` gives it):
   * where a container daemon put the containers it created with one `CgroupParent` (Docker, Podman with
   * `--cgroup-manager cgroupfs`). Their totals are `setTotal`'s, their children's CPU `cpuUsage`'s; `create` is not
   * used there (the daemon makes each container's). Resolves undefined where a controller has no v1 mount or path.
   */
  static async at(paths: ReadonlyMap<string, string>, procRoot = '/proc'): Promise<CgroupV1 | undefined> {
    return CgroupV1.make(procRoot, (c, mount) => {
      const path = paths.get(c);
      return path === undefined ? undefined : { shared: join(mount, path), parent: join(mount, path) };
    });
  }

  /** Finds each controller's v1 mount, places its directories with `place`, and makes them. */
  private static async make(procRoot: string, place: (c: Controller, mount: string) => { shared: string; parent: string } | undefined): Promise<CgroupV1 | undefined> {
    try {
      const mounts = await readFile(join(procRoot, 'self/mounts'), 'utf8');
      const parents = {} as Record<Controller, string>;
      const shared = {} as Record<Controller, string>;
      for (const c of [...CONTROLLERS, ...OPTIONAL]) {
        const mount = mounts.split('\n').map((l) => l.split(' ')).find((f) => f[2] === 'cgroup' && f[3]?.split(',').includes(c))?.[1];
        const at = mount === undefined ? undefined : place(c, mount);
        if (!at) {
          if ((OPTIONAL as readonly string[]).includes(c)) continue;
          return undefined;
        }
        shared[c] = at.shared;
        parents[c] = at.parent;
      }
      const cgroups = new CgroupV1(parents, shared);
      for (const [c, d] of cgroups.dirs) {
        await mkdir(d, { recursive: true }).catch((err: unknown) => {
          if (!(OPTIONAL as readonly string[]).includes(c)) throw err;
          delete parents[c];
          delete shared[c];
        });
      }
      return cgroups;
    } catch {
      return undefined;
    }
  }

  /**
   * Bounds all sprites together, of this server and of every other spritzer server started in the same cgroup:
   * `pids` processes and threads (a sprite under its own limit still fails with EAGAIN once the total is reached)
   * and `memoryBytes` of memory (RSS, page cache, tmpfs: past it the kernel OOM-kills the largest process of any
   * sprite below it). Both are written on the shared `spritzer/` directory; the last server to start sets them.
   * Rejects with the kernel's error when the memory total is below what the sprites already use (EBUSY).
   */
  async setTotal(limits: { pids?: number; memoryBytes?: number }): Promise<void> {
    if (limits.pids !== undefined) await writeFile(join(this.shared.pids!, 'pids.max'), String(limits.pids));
    if (limits.memoryBytes !== undefined) await writeFile(join(this.shared.memory!, 'memory.limit_in_bytes'), String(limits.memoryBytes));
  }

  /** Creates (or reuses) the sprite `name`'s cgroups and writes `limits` into them. */
  async create(name: string, limits: SandboxLimits): Promise<SpriteCgroup> {
    const dirs = this.dirs.map(([c, parent]) => [c, join(parent, name)] as const);
    for (const [, d] of dirs) await mkdir(d, { recursive: true });
    const dir = Object.fromEntries(CONTROLLERS.map((c) => [c, join(this.parents[c], name)])) as Record<(typeof CONTROLLERS)[number], string>;
    if (limits.memoryBytes !== undefined) await writeFile(join(dir.memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    if (limits.pids !== undefined) await writeFile(join(dir.pids, 'pids.max'), String(limits.pids));
    if (limits.cpus !== undefined) {
      await writeFile(join(dir.cpu, 'cpu.cfs_period_us'), String(CFS_PERIOD_US));
      await writeFile(join(dir.cpu, 'cpu.cfs_quota_us'), String(Math.max(1000, Math.round(limits.cpus * CFS_PERIOD_US))));
    }
    return {
      procsFiles: dirs.map(([, d]) => join(d, 'cgroup.procs')),
      pids: () => readPids(join(dir.pids, 'cgroup.procs')),
      pidsFiles: { max: join(dir.pids, 'pids.max'), current: join(dir.pids, 'pids.current') },
      remove: async () => {
        for (const [, d] of dirs) await rmdirRetry(d);
      },
    };
  }

  /**
   * The CPU time each sprite of this server has used since its cgroups were made, in nanoseconds (`cpuacct.usage`),
   * by the sprite's cgroup name; empty where the cpuacct controller is not mounted.
   */
  async cpuUsage(): Promise<Map<string, number>> {
    const usage = new Map<string, number>();
    const parent = this.parents.cpuacct;
    if (!parent) return usage;
    for (const child of await readdir(parent, { withFileTypes: true }).catch(() => [])) {
      if (!child.isDirectory()) continue;
      const ns = Number((await readFile(join(parent, child.name, 'cpuacct.usage'), 'utf8').catch(() => '')).trim());
      if (Number.isFinite(ns) && ns > 0) usage.set(child.name, ns);
    }
    return usage;
  }

  /**
   * What each task (thread) of the sprite `name` has asked of the CPU since it started, in nanoseconds: the time it
   * ran plus the time it waited, runnable, for a CPU (`/proc/<tid>/schedstat`), by thread id. A spinning task's sum
   * grows by one second per second however many others share the cores; a sleeping one's does not grow. At most
   * `maxTasks` tasks are read (the lowest ids: the longest-lived, as a rule), so that a sprite of thousands of tasks
   * costs spritzer no more than one of a few hundred.
   */
  async cpuDemand(name: string, maxTasks = 256): Promise<Map<number, number>> {
    const demand = new Map<number, number>();
    const tids = (await readPids(join(this.parents.cpu, name, 'tasks'))).sort((a, b) => a - b).slice(0, maxTasks);
    for (const tid of tids) {
      const [run, wait] = (await readFile(`/proc/${tid}/schedstat`, 'utf8').catch(() => '')).split(' ').map(Number);
      if (Number.isFinite(run) && Number.isFinite(wait)) demand.set(tid, run! + wait!);
    }
    return demand;
  }

  /**
   * Sets the sprite `name`'s `cpu.idle` (cgroup v1, Linux ≥ 5.15): when true its processes get the CPU only when no
   * other task wants it (SCHED_IDLE for the group), with no quota; false gives back the normal weight. Resolves
   * false when the kernel has no `cpu.idle` or the sprite's cgroup is gone.
   */
  async setCpuIdle(name: string, idle: boolean): Promise<boolean> {
    return writeFile(join(this.parents.cpu, name, 'cpu.idle'), idle ? '1' : '0').then(() => true, () => false);
  }

  /**
   * Kills (SIGKILL) every process left in the children of this server's parents (an earlier run that died)
   * and removes the empty children. Resolves with the number of processes killed.
   */
  async removeStale(): Promise<number> {
    let killed = 0;
    for (const [, parent] of this.dirs) {
      for (const child of await readdir(parent, { withFileTypes: true }).catch(() => [])) {
        if (!child.isDirectory()) continue;
        const dir = join(parent, child.name);
        for (const pid of await readPids(join(dir, 'cgroup.procs'))) {
          try {
            process.kill(pid, 'SIGKILL');
            killed += 1;
          } catch {
            /* already gone */
          }
        }
        await rmdir(dir).catch(() => undefined);
      }
    }
    return killed;
  }

  /**
   * For a process that is exiting: removes every child (empty once its processes were killed; retried for up to
   * 1 s while the kernel finishes them) and the parents, synchronously.
   */
  closeSync(): void {
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (const [c, parent] of this.dirs) {
      let children: string[] = [];
      try {
        children = readdirSync(parent, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
      } catch {
        continue;
      }
      for (const child of children) {
        for (let i = 0; i < 200; i++) {
          try {
            rmdirSync(join(parent, child));
            break;
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'EBUSY') break;
            Atomics.wait(pause, 0, 0, 5);
          }
        }
      }
      for (const dir of [parent, this.shared[c]!]) {
        try {
          rmdirSync(dir);
        } catch {
          /* not empty (the shared one: another server's): left for the next start's removeStale */
        }
      }
    }
  }

  /** Removes this server's parent directories (when every sprite is gone). */
  async close(): Promise<void> {
    for (const [c, parent] of this.dirs) {
      await rmdir(parent).catch(() => undefined);
      await rmdir(this.shared[c]!).catch(() => undefined); // another server's directory keeps it
    }
  }
}

/**
 * `prlimit` options for the rlimit fallback (`--data=`, `--nproc=`), empty when nothing is limited.
 * @deviation RLIMIT_NPROC counts the processes of one host uid (a sprite's user, each sprite having its own range),
 * RLIMIT_DATA is per process, and CPU cannot be limited: the fallback is much weaker than cgroups (docs/fidelity.md).
 */
export function prlimitArgs(limits: SandboxLimits): string[] {
  const args: string[] = [];
  if (limits.memoryBytes !== undefined) args.push(`--data=${limits.memoryBytes}`);
  if (limits.pids !== undefined) args.push(`--nproc=${limits.pids}`);
  return args;
}

async function readPids(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

/** rmdir of a cgroup; EBUSY while the kernel finishes tearing down exited tasks, so retry for up to 1 s. */
async function rmdirRetry(dir: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await rmdir(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code !== 'EBUSY' || i >= 200) throw err;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
