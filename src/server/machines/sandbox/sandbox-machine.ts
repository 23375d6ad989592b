/**
 * The sandbox engine's Machine: each sprite a real Linux machine on the host (launcher.ts: bubblewrap, overlayfs,
 * own namespaces, cgroups), its disk a writable layer with live snapshots (storage.ts), everything inside done by
 * the in-sprite agent (agent/client.ts; the lifecycle both agent-backed engines share is agent/agent-machine.ts).
 * It composes those three and owns how a sprite boots, reboots after a crash, restores (kill, swap the layer, boot)
 * and ends. It knows no HTTP, sessions or checkpoint ids.
 * @see src/server/machines/port.ts
 */
import { ModelError } from '../../core/errors.ts';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { SystemClock, type Clock } from '../../core/clock.ts';
import type { AdoptedMachine, Machine, MachineFactory, MachinePersistence, MachineSnapshot, MachineSpec, SnapshotMode } from '../port.ts';
import { agentFiles } from '../agent/bundle.ts';
import { assertReachable } from './reachable.ts';
import { AgentMachine } from '../agent/agent-machine.ts';
import { AgentClient } from '../agent/client.ts';
import { DEFAULT_AGENT_TIMEOUT_MS } from '../agent/deadlines.ts';
import { CgroupV1, type LimitsMode, type SandboxLimits, type SpriteCgroup } from '../agent/cgroups.ts';
import { CpuYield, DEFAULT_CPU_YIELD } from '../agent/cpu-yield.ts';
import { AGENT_COMMAND, agentMounts, launch, SANDBOX_PATH, type AgentFiles, type Sandbox } from './launcher.ts';
import { hostsFile, personalizeLayer, prepareHostBase, seedLayer, usePreparedRoot, type BaseRoot } from './rootfs.ts';
import { hasCommand } from './run.ts';
import { DEFAULT_ID_RANGE_SIZE, IdRanges, shiftLayer } from './id-ranges.ts';
import { DEFAULT_ID_BASE } from '../../config/sprite-resources.ts';
import { userNamespaceHelper } from './native.ts';
import { publishHelper, runAsHelper } from '../agent/native.ts';
import { RUNAS_PATH, SPRITE_GID, SPRITE_UID } from '../../../protocol/sprite-tree.ts';
import { seccompFilter } from './seccomp.ts';
import { defaultSpriteResources } from '../../config/sprite-resources.ts';
import { SparePool } from './spares.ts';
import { sweepCrashedTempDirs } from './stale-temp.ts';
import { HostnameSetter } from './hostname-setter.ts';
import { Storage, type LayerSnapshot, type StorageMode } from './storage.ts';
import { SpriteEgress, type EgressSettings } from './egress/sprite-egress.ts';
import type { NetworkPolicy } from '../../core/network-policy.ts';

/**
 * Per-sprite limits when none are given, sized to this host (sprite-resources.ts): memory a quarter of the host's
 * (at most 8 GiB), processes a sixteenth of pid_max (at most 4096).
 */
export const DEFAULT_LIMITS: SandboxLimits = { memoryBytes: defaultSpriteResources().memoryBytes, pids: defaultSpriteResources().pids };
/** The agent channel of a spare's warm-up process (machine pids count up from 1 and never reach it). */
const WARM_UP_CHANNEL = 0xffff_ffff;
/** Unix socket paths are limited to 107 bytes on Linux. */
const MAX_SOCKET_PATH = 107;

/** Options of `SandboxMachineFactory.open`. */
export interface SandboxFactoryOptions {
  /** Where layers live (`--data-dir`); default a temp dir removed at `close()`. */
  dataDir?: string;
  /** A prepared root (`--sandbox-root`) used as the single read-only base instead of the host's OS. */
  rootDir?: string;
  /** Per-sprite limits (default DEFAULT_LIMITS). */
  limits?: SandboxLimits;
  /** `auto` (default): cgroups v1 when writable, else rlimits. */
  limitsMode?: 'auto' | 'cgroup' | 'rlimit';
  /** `auto` (default): btrfs when possible, else copy. */
  storageMode?: StorageMode | 'auto';
  /** Size of the sparse btrfs image (storage.ts default when absent). */
  imageBytes?: number;
  /**
   * With `dataDir`: sprites' disks outlive the server, for `--data-dir` persistence (`persistence`, src/server/store).
   * Default false: a data dir's disks are deleted at `close()`, as before.
   */
  persist?: boolean;
  /**
   * The agent's files on the host. Default: `agentFiles()` of src/server/machines/agent/bundle.ts (this node, node-pty, and
   * `dist/agent/agent.mjs`, built first when missing).
   */
  agent?: Partial<Omit<AgentFiles, 'runDir'>>;
  /** How long a booting agent may take to answer (default 15 s). */
  bootTimeoutMs?: number;
  /** `--agent-timeout`: the deadline of one call to a sprite's agent, in ms (default DEFAULT_AGENT_TIMEOUT_MS; deadlines.ts). */
  agentTimeoutMs?: number;
  /** `--max-stdin-bytes`: most stdin a command may leave unread in its sprite (default 64 MiB; the agent kills it past that). */
  maxStdinBytes?: number;
  /**
   * Spare sandboxes kept booted so a create only renames one (`--sandbox-spares`, default 0 here; spares.ts).
   * Each costs an idle sprite's memory (about 45 MiB) and processes.
   */
  spares?: number;
  /** Schedules reboots after a crash (default the system clock). */
  clock?: Clock;
  logger?: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /** `--sandbox-egress`: `none` (default: loopback only) or `gate` (src/server/egress). */
  egress?: EgressSettings;
  /** `--sandbox-uid-base`: first host uid/gid of the sprites' id ranges (default DEFAULT_ID_BASE; id-ranges.ts). */
  idBase?: number;
  /** Inotify limits per user inside each sprite's user namespace (default sprite-resources.ts's; 0: the host's per-user values). */
  inotify?: { instances?: number; watches?: number };
  /** Processes and threads of all sprites together (cgroup mode only; default sprite-resources.ts's, half of pid_max). */
  pidsTotal?: number;
  /** Memory of all sprites together, bytes (cgroup mode only; default sprite-resources.ts's, three quarters of the host's). */
  memoryTotalBytes?: number;
  /**
   * The cgroup directory whose totals (`pidsTotal`, `memoryTotalBytes`) this server shares with every other server
   * opened with the same name in the same cgroup (default `spritzer`, cgroups.ts); tests give their own.
   */
  totalsGroup?: string;
  /**
   * `--sandbox-cpu-yield-after`: ms a sprite may keep a core busy before it yields the CPU to the others (cpu-yield.ts;
   * cgroup mode only); 0 never. Default DEFAULT_CPU_YIELD's.
   */
  cpuYieldAfterMs?: number;
}

/** A snapshot of a sandbox sprite's disk (a read-only btrfs snapshot, or a copy). */
interface SandboxSnapshot extends MachineSnapshot {
  readonly kind: 'sandbox';
  readonly layer: LayerSnapshot;
}

/** What every machine of one factory shares. */
interface Shared {
  storage: Storage;
  base: BaseRoot;
  cgroups?: CgroupV1;
  /** Samples the sprites' CPU time and makes the busy ones yield (cgroup mode, unless turned off). */
  cpuYield?: CpuYield;
  limits: SandboxLimits;
  agent: Omit<AgentFiles, 'runDir'>;
  bootTimeoutMs: number;
  /** The deadline of one agent call (ms). */
  agentTimeoutMs: number;
  /** Most stdin a command may leave unread (bytes; undefined: the agent client's default). */
  maxStdinBytes: number | undefined;
  clock: Clock;
  logger?: SandboxFactoryOptions['logger'];
  egress?: EgressSettings;
  /** Sprites' host id ranges. */
  ids: IdRanges;
  /** The compiled `spritzer-userns` helper. */
  usernsHelper: string;
  /** The seccomp filter every sprite runs under (seccomp.ts), a file in the data dir. */
  seccompFile: string;
  inotify: { instances?: number; watches?: number };
}

/**
 * Creates sandbox machines. `open()` prepares everything once per server: claims the data dir (cleaning up what a
 * dead earlier run left), picks the storage (btrfs or copy) and the limits (cgroup or rlimit), builds the base
 * root and the layer template. Log `snapshotMode` and `limitsMode` at start.
 * @see docs/fidelity.md "Sandbox engine"
 */
export class SandboxMachineFactory implements MachineFactory {
  readonly engine = 'sandbox';
  private readonly machines = new Set<SandboxMachine>();
  private closed = false;
  private spareSeq = 0;
  private readonly runTag = Date.now().toString(36);
  /** The disk quota of the latest create: spares boot with it, so adopting one rarely has to change it. */
  private spareQuota: number | undefined;
  /** Booted spares that `create` adopts (spares.ts); size 0 boots every sprite cold. */
  readonly spares: SparePool<SandboxMachine>;
  /** Removes a temp data dir if the process exits without `close()` (the sandboxes die with it: --die-with-parent). */
  private readonly exitHook = () => {
    for (const m of this.machines) m.killNow();
    this.shared.cgroups?.closeSync();
    spawnSync('umount', ['-l', join(this.dataDir, 'vol')]);
    rmSync(this.dataDir, { recursive: true, force: true });
  };

  private constructor(
    private readonly shared: Shared,
    /** How limits are enforced (`cgroup`, `rlimit`, `none`). */
    readonly limitsMode: LimitsMode,
    private readonly removeDataDir: boolean,
    spares = 0,
    /** `--data-dir` persistence: sprites' disks outlive the server (close stops them instead of destroying them). */
    private readonly keep = false,
  ) {
    if (removeDataDir) process.once('exit', this.exitHook);
    this.spares = new SparePool<SandboxMachine>(spares, {
      boot: async () => {
        // The run's start time in the key: a persisted sprite that adopted an earlier run's spare keeps its key.
        const m = await this.boot({ name: 'sprite', id: `spare.${this.runTag}.${++this.spareSeq}`, diskQuotaBytes: this.spareQuota });
        await m.prepareAdopt();
        return m;
      },
      dispose: (m) => m.destroy(),
      usable: (m) => m.running,
      onError: (err) => this.shared.logger?.warn({ err: err.message }, 'sandbox: a spare sprite failed to boot'),
    });
    this.spares.fill();
  }

  /**
   * Prepares the engine. Rejects when the host cannot run it: not Linux, not root, `bwrap` missing, no agent bundle
   * that can be built (`npm run build:agent`) or no node-pty, a data dir in use by another spritzer, or `rootDir` that is not a root filesystem.
   */
  static async open(opts: SandboxFactoryOptions = {}): Promise<SandboxMachineFactory> {
    if (process.platform !== 'linux') throw new Error('the sandbox engine needs Linux');
    if (process.getuid?.() !== 0) throw new Error('the sandbox engine needs root (overlay mounts and namespaces)');
    if (!(await hasCommand('bwrap'))) throw new Error('the sandbox engine needs bubblewrap: apt-get install -y bubblewrap');
    const agent = { ...(opts.agent?.bundle ? { bundle: opts.agent.bundle, nodePtyDir: findNodePty(), node: process.execPath } : await agentFiles()), ...opts.agent };
    if (!existsSync(agent.bundle)) throw new Error(`sandbox agent bundle ${agent.bundle} is missing: run npm run build:agent`);
    const temp = opts.dataDir === undefined;
    // A run killed without its exit hook left its temp data dir mounted, and no later run uses that dir again.
    const swept = await sweepCrashedTempDirs(tmpdir(), async (dir) => {
      const stale = opts.limitsMode === 'rlimit' ? undefined : await CgroupV1.open(cgroupTag(dir));
      await stale?.removeStale();
      await stale?.close();
    });
    if (swept.length) opts.logger?.warn({ removed: swept }, 'sandbox: removed the temp data dirs of spritzers that died');
    const dataDir = opts.dataDir ? resolve(opts.dataDir) : await mkdtemp(join(tmpdir(), 'spritzer-'));
    await mkdir(dataDir, { recursive: true });
    await assertReachable([
      { path: dataDir, what: 'the data dir (--data-dir)', need: 'dir' },
      { path: agent.node, what: "the agent's node binary", need: 'exec' },
      { path: agent.bundle, what: "the agent's bundle", need: 'file' },
      ...(agent.nodePtyDir ? [{ path: agent.nodePtyDir, what: 'node-pty', need: 'dir' as const }] : []),
    ]);
    const keep = !temp && (opts.persist ?? false);
    const usernsHelper = await userNamespaceHelper();
    const storage = await Storage.open({ dataDir, mode: opts.storageMode, imageBytes: opts.imageBytes, logger: opts.logger, keep });
    try {
      // Bubblewrap runs as the sprite's root (its own host uid), so it must walk from / to the sprite's dir by path:
      // the data dir (claimed 0711 by Storage.open) and `sprites/` give search (x) to others, never read; each
      // sprite's dir is its own uid's, 0700.
      await mkdir(join(dataDir, 'sprites'), { recursive: true, mode: 0o711 });
      await chmod(join(dataDir, 'sprites'), 0o711);
      const ids = await IdRanges.open(dataDir, { base: opts.idBase ?? DEFAULT_ID_BASE, size: DEFAULT_ID_RANGE_SIZE }, keep);
      const seccompFile = join(dataDir, 'seccomp.bpf');
      await writeFile(seccompFile, seccompFilter(), { mode: 0o600 });
      // The run-as helper is bound into every sprite by bubblewrap, which opens it as the sprite's root: a copy
      // others may read and run, in the data dir (searchable by others), not the root-only compile cache.
      const runAs = opts.agent?.runAs ?? (await publishHelper(await runAsHelper(), join(dataDir, 'spritzer-runas')));
      const base = opts.rootDir ? await usePreparedRoot(resolve(opts.rootDir)) : await prepareHostBase(join(dataDir, 'base'));
      await storage.createTemplate((dir) => seedLayer(dir, base));
      const limits = opts.limits ?? DEFAULT_LIMITS;
      const cgroups = opts.limitsMode === 'rlimit' ? undefined : await CgroupV1.open(cgroupTag(dataDir), opts.totalsGroup);
      if (opts.limitsMode === 'cgroup' && !cgroups) throw new Error('cgroup limits asked for, but no writable cgroup v1 memory/pids/cpu');
      const totals = defaultSpriteResources();
      await cgroups?.setTotal({ pids: opts.pidsTotal ?? totals.pidsTotal }).catch((err: Error) => {
        throw new Error(`cannot set the pids total of all sprites (--sandbox-pids-total): ${err.message}`);
      });
      await cgroups?.setTotal({ memoryBytes: opts.memoryTotalBytes ?? totals.memoryTotalBytes }).catch((err: Error) => {
        // EBUSY: the sprites of other servers in this cgroup already use more; their own limits still hold.
        opts.logger?.warn({ err: err.message }, 'sandbox: the memory total of all sprites (--sandbox-memory-total) was not set');
      });
      const stale = (await cgroups?.removeStale()) ?? 0;
      if (stale) opts.logger?.warn({ killed: stale }, 'sandbox: killed processes left in cgroups by an earlier run');
      const limitsMode: LimitsMode = cgroups ? 'cgroup' : Object.keys(limits).length ? 'rlimit' : 'none';
      const afterMs = opts.cpuYieldAfterMs ?? DEFAULT_CPU_YIELD.afterMs;
      const cpuYield = cgroups && afterMs > 0
        ? new CpuYield(cgroups, { ...DEFAULT_CPU_YIELD, afterMs }, undefined, (sprite, yielding) => opts.logger?.info({ sprite, yielding }, yielding ? 'sandbox: a busy sprite yields the CPU to the others' : 'sandbox: a sprite is quiet again and gets its CPU weight back'))
        : undefined;
      cpuYield?.start();
      const factory = new SandboxMachineFactory(
        {
          storage, base, cgroups, cpuYield, limits, bootTimeoutMs: opts.bootTimeoutMs ?? 15_000, agentTimeoutMs: opts.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS, maxStdinBytes: opts.maxStdinBytes, clock: opts.clock ?? new SystemClock(), logger: opts.logger,
          egress: opts.egress, ids, usernsHelper, seccompFile, agent: { ...agent, runAs },
          inotify: opts.inotify ?? { instances: defaultSpriteResources().inotifyInstances, watches: defaultSpriteResources().inotifyWatches },
        },
        limitsMode,
        temp,
        opts.spares ?? 0,
        keep,
      );
      opts.logger?.info(
        { dataDir, snapshotMode: storage.mode, fallback: storage.fallbackReason, limitsMode, base: base.kind },
        `sandbox engine: snapshots by ${storage.mode}, limits by ${limitsMode}`,
      );
      return factory;
    } catch (err) {
      await storage.close({ removeDataDir: temp });
      throw err;
    }
  }

  /** `btrfs` (live O(1) snapshots) or `copy`. */
  get snapshotMode(): SnapshotMode {
    return this.shared.storage.mode;
  }

  /** The data directory in use. */
  get dataDir(): string {
    return this.shared.storage.dataDir;
  }

  /**
   * Creates the sprite: adopts a booted spare when one is ready (renamed through `adopt`: a few ms), else creates
   * its layer from the template (hostname and `/etc/hosts` name it) and its cgroups and boots it. Resolves once its
   * agent answers. Rejects (leaving nothing behind) when the boot fails.
   * @deviation an adopted spare's disk, cgroup and host dirs are named by the spare's key, not the sprite id.
   */
  async create(spec: MachineSpec): Promise<SandboxMachine> {
    if (this.closed) throw new Error('sandbox factory is closed');
    this.spareQuota = spec.diskQuotaBytes;
    const spare = this.spares.take();
    if (spare) {
      try {
        await spare.adopt(spec);
        return spare;
      } catch (err) {
        this.shared.logger?.warn({ sprite: spec.name, err: (err as Error).message }, 'sandbox: a spare could not be adopted; booting cold');
        await spare.destroy().catch(() => undefined);
      }
    }
    return this.boot(spec);
  }

  /** Saving and re-booting sprites across restarts; only with `persist` (a `--data-dir` given). */
  get persistence(): MachinePersistence | undefined {
    if (!this.keep) return undefined;
    const { storage } = this.shared;
    return {
      save: (machine) => ({ key: (machine as SandboxMachine).key }),
      // The disk is a host layer named in the saved form; nothing is saved as it changes.
      release: () => undefined,
      saveSnapshot: (snapshot) => (snapshot as SandboxSnapshot).layer,
      reviveSnapshot: (saved) => {
        const layer = saved as LayerSnapshot;
        const snap: SandboxSnapshot = { kind: 'sandbox', layer: { spriteId: String(layer.spriteId), path: String(layer.path) } };
        return snap;
      },
      reattach: async (spec, saved) => {
        const key = String((saved as { key?: unknown }).key);
        if (!(await storage.hasLayer(key))) throw new Error(`the disk of sprite ${spec.name} (${key}) is gone from the data dir`);
        return this.boot(spec, key, { existing: true });
      },
      prune: async (keep) => {
        const keys = new Set(keep.map((k) => String((k as { key?: unknown }).key)));
        // What this run made is never an earlier run's leftover: its machines, and its spares (booted or booting:
        // the pool fills while the store loads, and a spare's disk deleted under it failed its boot).
        const ours = (key: string) => keys.has(key) || key.startsWith(`spare.${this.runTag}.`) || [...this.machines].some((m) => m.key === key);
        await this.shared.ids.prune(ours);
        const removed = await storage.prune(ours);
        if (removed) this.shared.logger?.info({ removed }, 'sandbox: removed disks no saved sprite names');
      },
    };
  }

  /** Creates a layer and cgroups named `key` and boots a machine on them (a cold boot). */
  private async boot(spec: MachineSpec, key = spec.id, opts: { existing?: boolean } = {}): Promise<SandboxMachine> {
    if (this.closed) throw new Error('sandbox factory is closed');
    const { storage, base, cgroups, limits, ids } = this.shared;
    const layer = opts.existing ? await storage.reuseLayer(key) : await storage.createLayer(key);
    let cgroup: SpriteCgroup | undefined;
    try {
      if (!opts.existing) await personalizeLayer(layer, base, spec.name);
      await ids.allocate(key);
      cgroup = await cgroups?.create(key, limits);
      const machine = new SandboxMachine(spec, this.shared, cgroup, () => this.machines.delete(machine), key);
      this.machines.add(machine);
      try {
        await machine.boot();
      } catch (err) {
        // A sprite kept from an earlier run is the user's data: it stays, not booted, until a restore or a delete.
        if (opts.existing) {
          this.shared.logger?.warn({ sprite: spec.name, err: (err as Error).message }, 'sandbox: a saved sprite could not boot; kept with its disk and checkpoints');
          return machine;
        }
        this.machines.delete(machine);
        throw err;
      }
      return machine;
    } catch (err) {
      await cgroup?.remove().catch(() => undefined);
      // A disk kept from an earlier run stays, whatever its boot did: it is the user's data (and keeps its range).
      if (!opts.existing) {
        await storage.destroy(key).catch(() => undefined);
        await ids.release(key).catch(() => undefined);
      }
      throw err;
    }
  }

  /** Nothing to load ahead: the base root and storage are ready once the factory opens. */
  async warm(): Promise<void> {}

  /** Sandbox sprites end with spritzer (their disks stay only with `--data-dir`): there is never one to adopt. */
  async adoptExisting(): Promise<AdoptedMachine[]> {
    return [];
  }

  /** Sandbox sprites end with spritzer: nothing to let go of. */
  detach(): void {}

  /**
   * Destroys every machine still alive (with persistence: stops them, keeping their disks), then frees the storage
   * (unmounts, removes a temp data dir) and the cgroups.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    process.off('exit', this.exitHook);
    await this.spares.close();
    await this.shared.cpuYield?.stop();
    await Promise.all([...this.machines].map((m) => (this.keep ? m.halt() : m.destroy()).catch(() => undefined)));
    await this.shared.cgroups?.close();
    await this.shared.storage.close({ removeDataDir: this.removeDataDir });
  }
}

/**
 * One sandbox sprite. Processes run as `sprite` (uid/gid 1001, groups 27 and 100) under the agent; pids come from a per-machine
 * counter (never reused while the sprite lives). A crash of the agent or the sandbox reboots the sprite (fresh
 * namespaces on the same disk) and calls the `onReboot` listeners, so services can come back.
 */
export class SandboxMachine extends AgentMachine implements Machine {
  readonly kind = 'sandbox';
  readonly engine = 'sandbox';
  private sandbox?: Sandbox;
  /** When the latest crashes happened (ms): the reboot after one waits longer the more came within a minute. */
  private crashes: number[] = [];
  /** The egress gate of this sprite (`--sandbox-egress gate`), else undefined. */
  private readonly egress: SpriteEgress | undefined;

  private currentSpec: MachineSpec;
  /** A helper waiting to set the hostname of a spare (prepareAdopt); dropped at every teardown. */
  private hostnameSetter?: HostnameSetter;
  /** Whether a quota was set on the layer (it is lifted while the next boot mounts it). */
  private quotaSet = false;

  /** @internal created by SandboxMachineFactory.create */
  constructor(
    spec: MachineSpec,
    private readonly shared: Shared,
    private readonly cgroup: SpriteCgroup | undefined,
    private readonly onDestroyed: () => void,
    /** Names the sprite's layer, snapshots, host dirs (and cgroup): its id, or the spare's own key (spares.ts). */
    readonly key: string = spec.id,
  ) {
    super();
    this.currentSpec = spec;
    this.egress = SpriteEgress.of(shared.egress);
  }

  /** The sprite's name and id (a spare's placeholder until `adopt`). */
  get spec(): MachineSpec {
    return this.currentSpec;
  }

  /** Whether the sprite is booted with its agent answering (a spare that crashed is not handed out). */
  get running(): boolean {
    return !!this.agent && !this.destroyed;
  }

  /**
   * Makes this booted spare the sprite `spec`: the UTS namespace's hostname (set from the host with `nsenter`: the
   * agent may not), and `/etc/hostname` and `/etc/hosts` written through the agent, root-owned as on a cold boot.
   * Rejects when the spare is not running (the caller then boots cold).
   * @internal used by SandboxMachineFactory.create; @see spares.ts
   */
  async adopt(spec: MachineSpec): Promise<void> {
    const initPid = this.sandbox?.initPid;
    const uts = this.sandbox?.utsNamespace;
    if (!this.agent || !initPid || !uts || this.destroyed) throw new Error('spare sandbox is not running');
    const agent = this.agent;
    const quotaChanged = spec.diskQuotaBytes !== this.currentSpec.diskQuotaBytes;
    this.currentSpec = spec;
    // Both files exist (personalizeLayer wrote them, root-owned, 0644): a write keeps their owner and mode.
    const file = (path: string, text: string) => agent.fs.writeFile(path, new TextEncoder().encode(text), { noFollow: true });
    const setter = this.hostnameSetter?.initPid === initPid ? this.hostnameSetter : HostnameSetter.start(initPid, uts);
    this.hostnameSetter = undefined;
    await Promise.all([
      setter.set(spec.name).finally(() => setter.dispose()),
      file('/etc/hostname', `${spec.name}\n`),
      file('/etc/hosts', hostsFile(spec.name)),
      quotaChanged ? this.shared.storage.setQuota(this.key, spec.diskQuotaBytes).then(() => void (this.quotaSet = true)) : undefined,
    ]);
  }

  /**
   * Readies `adopt` ahead of time: a helper already inside this sandbox's UTS namespace (hostname-setter.ts), so an
   * adoption only hands it the name, and one throwaway `true` as the sprite user, so the agent's spawn path is warm
   * for the sprite's first command. Called by the spare pool after the boot; a reboot discards the helper.
   * @internal
   */
  async prepareAdopt(): Promise<void> {
    const initPid = this.sandbox?.initPid;
    const uts = this.sandbox?.utsNamespace;
    const agent = this.agent;
    if (!initPid || !uts || !agent || this.destroyed) return;
    this.hostnameSetter?.dispose();
    this.hostnameSetter = HostnameSetter.start(initPid, uts);
    const warm = agent.spawn(
      { argv: ['true'], env: { PATH: SANDBOX_PATH }, dir: '/', tty: false, rows: 24, cols: 80, uid: SPRITE_UID, gid: SPRITE_GID },
      { stdout: () => undefined, stderr: () => undefined },
      { stdin: false, pid: WARM_UP_CHANNEL },
    );
    await warm.exit.catch(() => undefined);
  }

  /** The sprite's network policy, pushed by SpritePolicies: enforced by the egress gate when it is on. */
  setNetworkPolicy(policy: NetworkPolicy): void {
    this.egress?.setPolicy(policy);
  }

  /** Host pid of the sandbox's PID 1 (tests and diagnostics); undefined while not booted. */
  get initPid(): number | undefined {
    return this.sandbox?.initPid;
  }

  /**
   * Host pids of the sprite (bubblewrap and every process inside) and their summed resident memory in bytes
   * (VmRSS); empty while not booted. For the benchmark and diagnostics.
   */
  async processes(): Promise<{ pids: number[]; rssBytes: number }> {
    const pids = (await this.sandbox?.hostPids()) ?? [];
    let rssBytes = 0;
    for (const pid of pids) {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      rssBytes += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
    }
    return { pids, rssBytes };
  }

  /** Whether this sprite yields the CPU now, having kept a core busy (cpu-yield.ts). For tests and diagnostics. */
  get cpuYielding(): boolean {
    return this.shared.cpuYield?.yielding().includes(this.key) ?? false;
  }

  /** SIGKILLs the sandbox's PID 1 (so every process of the sprite dies) without waiting: for an exiting server. */
  killNow(): void {
    this.sandbox?.killNow();
  }

  /** Host paths of this sprite (tests and diagnostics). */
  get paths(): { layer: string; spriteDir: string; socket: string } {
    const spriteDir = this.shared.storage.spriteDir(this.key);
    return { layer: this.shared.storage.layerDir(this.key), spriteDir, socket: join(spriteDir, 'run', 'agent.sock') };
  }

  /**
   * Starts the sandbox on the current layer and connects to its agent; resolves when the agent answers.
   * A failed boot marks the sprite failed (`bootFailure`, its error): a sprite kept from an earlier run whose disk
   * no longer boots (`--data-dir`) stays so until a restore boots it.
   * @internal used by the factory, restore and the crash handler
   */
  async boot(): Promise<void> {
    await this.startAgent((generation) =>
      this.launchOnce(generation).catch((err: Error) => {
        this.setFailure(err.message);
        throw new ModelError('sprite_unavailable', `sprite ${this.spec.name} could not boot (${err.message}); restore one of its checkpoints or delete it`);
      }),
    );
  }

  private async launchOnce(generation: number): Promise<AgentClient> {
    const { storage, base, limits, agent, bootTimeoutMs, logger } = this.shared;
    const { spriteDir, socket } = this.paths;
    if (socket.length > MAX_SOCKET_PATH) throw new Error(`agent socket path ${socket} is longer than ${MAX_SOCKET_PATH} bytes: use a shorter --data-dir`);
    const runDir = join(spriteDir, 'run');
    // The sprite's root is host uid `hostBase`: its files move into that range once (a layer of an older layout, a
    // checkpoint restored from one), and its host dir (mount points, the agent's socket dir) is its own.
    const hostBase = await this.shared.ids.allocate(this.key);
    const shifted = await shiftLayer(storage.layerDir(this.key), hostBase, DEFAULT_ID_RANGE_SIZE);
    if (shifted) logger?.info({ sprite: this.spec.name, entries: shifted, hostBase }, 'sandbox: layer moved into the sprite\'s host id range');
    await chown(spriteDir, hostBase, hostBase);
    await chmod(spriteDir, 0o700);
    // Overlayfs mounts read-only when its upper layer has no room for its work files: a sprite whose disk is full
    // must boot writable (as a full real disk mounts), so the quota is lifted for the mount and set again after.
    if (this.quotaSet) await storage.setQuota(this.key, undefined);
    await rm(runDir, { recursive: true, force: true });
    await mkdir(runDir, { recursive: true, mode: 0o700 });
    await chown(runDir, hostBase, hostBase);
    const sandbox = await launch({
      hostname: this.spec.name,
      base,
      layerDir: storage.layerDir(this.key),
      mergedDir: join(spriteDir, 'merged'),
      command: agent.runAs ? [...AGENT_COMMAND, '--run-as', RUNAS_PATH] : AGENT_COMMAND,
      mounts: agentMounts({ ...agent, runDir, ...(this.cgroup ? { pidsFiles: this.cgroup.pidsFiles } : {}) }),
      cgroup: this.cgroup,
      rlimits: limits,
      // Half the memory limit: tmpfs pages cannot be reclaimed, and a full /dev/shm must not OOM-kill the agent.
      shmBytes: limits.memoryBytes === undefined ? undefined : Math.floor(limits.memoryBytes / 2),
      seccompFile: this.shared.seccompFile,
      userns: {
        helper: this.shared.usernsHelper, hostBase, size: DEFAULT_ID_RANGE_SIZE, lowerDir: join(spriteDir, 'lower'),
        inotifyInstances: this.shared.inotify.instances, inotifyWatches: this.shared.inotify.watches,
      },
      onOutput: (stream, chunk) => logger?.debug({ sprite: this.spec.name, stream }, chunk.toString('utf8').trimEnd()),
    });
    this.sandbox = sandbox;
    if (this.spec.diskQuotaBytes !== undefined) {
      await storage.setQuota(this.key, this.spec.diskQuotaBytes).catch(async (err: Error) => {
        await sandbox.kill();
        throw err;
      });
      this.quotaSet = true;
    }
    let client: AgentClient;
    const connecting = new AbortController();
    try {
      client = await Promise.race([
        AgentClient.connect(socket, { timeoutMs: bootTimeoutMs, signal: connecting.signal, timing: { clock: this.shared.clock, timeoutMs: this.shared.agentTimeoutMs }, stdinMax: this.shared.maxStdinBytes }),
        sandbox.exited.then((e) => {
          throw new Error(`sprite ${this.spec.name}: agent exited (${e.signal ?? e.code}) before answering: ${sandbox.output().stderr.trim()}`);
        }),
      ]);
      // The agent listens now: its socket's directory becomes host root's, an owner the sprite's user namespace does
      // not map, so no process inside (an exec session holding CAP_DAC_OVERRIDE, root through sudo) can reach the
      // socket or write into that host directory; spritzer connects from outside.
      await chown(runDir, 0, 0);
      await this.egress?.attach(client);
    } catch (err) {
      connecting.abort();
      await sandbox.kill();
      throw err;
    }
    if (!this.isCurrent(generation)) {
      client.close();
      await sandbox.kill();
      throw new Error(`sprite ${this.spec.name} was stopped while booting`);
    }
    this.routeAccepted(client, (conn, listener) => this.egress?.accept(conn, listener));
    // The sandbox dying is a crash too, even before the agent's connection notices.
    this.takeAgent(client, generation, sandbox.exited);
    return client;
  }

  /** A crash (agent connection lost or sandbox gone): kill what is left, boot again, tell the listeners. */
  protected async onCrash(generation: number): Promise<void> {
    this.generation++;
    const now = this.shared.clock.now();
    this.crashes = [...this.crashes.filter((t) => now - t < 60_000), now];
    const delay = Math.min(10_000, 100 * 2 ** (this.crashes.length - 1)) - 100;
    this.shared.logger?.warn({ sprite: this.spec.name, generation, delayMs: delay }, 'sandbox: sprite agent lost, rebooting');
    await this.teardown();
    const retry = () => {
      if (this.destroyed) return;
      void this.serialized(async () => {
        if (this.destroyed) return;
        try {
          await this.boot();
          this.rebooted();
        } catch (err) {
          this.shared.logger?.error({ sprite: this.spec.name, err: (err as Error).message }, 'sandbox: reboot failed');
          void this.onCrash(this.generation);
        }
      });
    };
    if (delay <= 0) retry();
    else this.shared.clock.setTimeout(retry, delay);
  }

  /** The agent broke the protocol (AgentMachine): every process of the sprite dies with its sandbox. */
  protected async stopFailed(reason: string): Promise<void> {
    this.shared.logger?.error({ sprite: this.spec.name, reason }, 'sandbox: the sprite agent broke the protocol; sprite stopped and marked failed');
    await this.serialized(() => this.teardown());
  }

  /** Kills the sandbox (every process, the mounts with it) and drops the agent connection. */
  private async teardown(): Promise<void> {
    const { sandbox } = this;
    this.sandbox = undefined;
    this.hostnameSetter?.dispose();
    this.hostnameSetter = undefined;
    this.dropAgent();
    await sandbox?.kill();
  }

  /** With the egress gate on, a process's environment names its proxy (sprite-egress.ts). */
  protected execEnv(env: Record<string, string>): Record<string, string> {
    return this.egress ? this.egress.env(env) : env;
  }

  /** A live read-only snapshot of the writable layer (btrfs: O(1), ~10 ms; nothing stops). */
  snapshot(): Promise<MachineSnapshot> {
    return this.serialized(async () => {
      this.assertLive();
      const layer = await this.shared.storage.snapshot(this.key);
      const snap: SandboxSnapshot = { kind: 'sandbox', layer };
      return snap;
    });
  }

  /**
   * Kills the sprite (every process), makes `snapshot` its live layer, and boots it again. Rejects, touching
   * nothing, when the snapshot was released or belongs to another sprite.
   */
  restore(snapshot: MachineSnapshot): Promise<void> {
    const snap = asSandboxSnapshot(snapshot, this.key);
    return this.serialized(async () => {
      this.assertLive();
      await this.shared.storage.stageRestore(this.key, snap.layer);
      this.generation++;
      await this.teardown();
      try {
        await this.shared.storage.commitRestore(this.key);
      } finally {
        // On failure the old layer is still the live one: boot it again.
        await this.boot();
      }
    });
  }

  async releaseSnapshot(snapshot: MachineSnapshot): Promise<void> {
    await this.shared.storage.release(asSandboxSnapshot(snapshot, this.key).layer);
  }

  /**
   * What the sprite wrote on its disk (its layer, walked on the host; storage.ts). Not the agent's `usage()`: inside,
   * `/usr` is a writable overlay of the host's, so a walk there would count gigabytes of the host OS.
   */
  async usage(): Promise<{ bytes: number; files: number }> {
    this.assertLive();
    return this.shared.storage.usage(this.key);
  }

  /**
   * Kills everything and frees the cgroups, keeping the layer and every snapshot for a later run (`--data-dir`
   * persistence: the factory's `close`). The machine is unusable afterwards. @internal
   */
  halt(): Promise<void> {
    return this.end({ keepDisk: true });
  }

  /** Kills everything, then removes the layer, every snapshot, the cgroups and the sprite's host dirs. */
  destroy(): Promise<void> {
    return this.end({ keepDisk: false });
  }

  /** The end of the machine (`halt`, `destroy`): everything stops; the disk stays only with `keepDisk`. */
  private end(opts: { keepDisk: boolean }): Promise<void> {
    return this.serialized(async () => {
      if (this.destroyed) return;
      this.markDestroyed();
      this.egress?.close();
      await this.teardown();
      await this.cgroup?.remove();
      if (!opts.keepDisk) {
        await this.shared.storage.destroy(this.key);
        await this.shared.ids.release(this.key);
      }
      this.onDestroyed();
    });
  }
}

/** The name of a data dir's cgroup parents (`spritzer/<tag>`): a hash of its absolute path. */
function cgroupTag(dataDir: string): string {
  return createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
}

function asSandboxSnapshot(snapshot: MachineSnapshot, spriteId: string): SandboxSnapshot {
  const s = snapshot as Partial<SandboxSnapshot>;
  if (s.kind !== 'sandbox' || !s.layer || s.layer.spriteId !== spriteId) throw new Error(`not a snapshot of sandbox sprite ${spriteId}`);
  return s as SandboxSnapshot;
}

function findNodePty(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('node-pty/package.json'));
  } catch {
    return undefined;
  }
}
