/**
 * The `container` engine's Machine: each sprite a container `<namespace>-<name>` (default `spritzer-<name>`) on Docker
 * or Podman through the Docker Engine API (dockerode), its first process the in-sprite agent under the runtime's
 * init, reached only by exec (bridge.ts) and spoken to with the sandbox's AgentClient (the lifecycle both
 * agent-backed engines share is agent/agent-machine.ts). Checkpoints are `docker commit`s of the writable layer;
 * restore recreates the container from one. It owns the containers and checkpoint images it made, through a
 * BoxRuntime (boxes.ts: Docker/Podman; kubernetes.ts: pods); it knows no HTTP, sessions or checkpoint ids.
 * @see src/server/machines/port.ts, docs/fidelity.md "Container engine"
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { SystemClock, type Clock } from '../../core/clock.ts';
import { ModelError } from '../../core/errors.ts';
import { API_SOCKET_PATH as API_SOCKET_IN_SPRITE } from '../../../protocol/sprite-tree.ts';
import type { AdoptedMachine, Machine, MachineFactory, MachineRecord, MachineSnapshot, MachineSpec } from '../port.ts';
import { AgentMachine } from '../agent/agent-machine.ts';
import { agentFiles, type AgentFiles } from '../agent/bundle.ts';
import { AgentClient } from '../agent/client.ts';
import { agentArchive } from './agent-archive.ts';
import { isStaticElf, runAsHelper } from '../agent/native.ts';
import { RUNAS_PATH } from '../../../protocol/sprite-tree.ts';
import { defaultSpriteResources } from '../../config/sprite-resources.ts';
import { AGENT_SOCKET_IN_SPRITE, startBridge, type AgentBridge } from './bridge.ts';
import { DockerBoxes, type BoxInfo, type BoxRuntime } from './boxes.ts';
import { DEFAULT_AGENT_IMAGE, DEFAULT_CREATE_TIMEOUT_MS, DEFAULT_NAMESPACE, DEFAULT_SPRITE_IMAGE } from './defaults.ts';
import { DEFAULT_AGENT_TIMEOUT_MS } from '../agent/deadlines.ts';
import { KubeBoxes, missingPermissions, openKubeIfChosen, type KubeApi } from './kubernetes.ts';
import { openEngineApi, type ContainerRuntimeName, type EngineApi } from './runtime.ts';
import { openContainerHostCgroups, type ContainerHostCgroups } from './host-cgroups.ts';
import { defaultRecordDir, HostRecords } from './records.ts';

export { DEFAULT_CREATE_TIMEOUT_MS, DEFAULT_NAMESPACE, DEFAULT_SPRITE_IMAGE } from './defaults.ts';

/** Labels every container and checkpoint image of this engine carries. */
export const LABELS = {
  managed: 'dev.spritzer.managed',
  namespace: 'dev.spritzer.namespace',
  sprite: 'dev.spritzer.sprite',
  id: 'dev.spritzer.id',
} as const;

/** How many times a sprite whose agent was lost is started again and reconnected before the restart fails. */
const RESTART_ATTEMPTS = 5;
/**
 * After a failed restart, how long until the next try (ms): a sprite whose runtime went away for a while (the
 * Kubernetes API server restarting, its node gone until the pod is made again elsewhere) comes back by itself.
 */
export const RESTART_RETRY_MS = 5_000;

/** Options of `ContainerMachineFactory.open`. */
export interface ContainerFactoryOptions {
  /** `--container-runtime` (default `auto`). */
  runtime?: ContainerRuntimeName;
  /** An Engine API client to use instead of discovery (tests). */
  api?: EngineApi;
  /** A Kubernetes API to use instead of discovery (tests: the fake API server). */
  kube?: KubeApi;
  /** `--agent-image` (Kubernetes): the spritzer image whose init container copies the agent into each pod. */
  agentImage?: string;
  /** `--sprite-image` (default DEFAULT_SPRITE_IMAGE): any image with `node` on its PATH. */
  image?: string;
  /** `--namespace` (default DEFAULT_NAMESPACE): prefixes container names, labels everything. */
  namespace?: string;
  /** `--create-timeout` in ms (default DEFAULT_CREATE_TIMEOUT_MS). */
  createTimeoutMs?: number;
  /** `--agent-timeout`: the deadline of one call to a sprite's agent, in ms (default DEFAULT_AGENT_TIMEOUT_MS; deadlines.ts). */
  agentTimeoutMs?: number;
  /** `--max-stdin-bytes`: most stdin a command may leave unread in its sprite (default 64 MiB; the agent kills it past that). */
  maxStdinBytes?: number;
  /**
   * What to do with the containers of this namespace an earlier spritzer left: `adopt` (default) keeps them for
   * `adoptExisting` (the server adopts them as sprites at start); `remove` removes them at open.
   */
  leftovers?: 'adopt' | 'remove';
  /** The agent's files on the host (default `agentFiles()`). */
  agent?: Partial<AgentFiles>;
  /** Memory (bytes) and processes per sprite (`--sprite-memory`, `--sprite-pids`; default sized to the host, sprite-resources.ts). */
  limits?: { memoryBytes?: number; pids?: number };
  /**
   * Memory of all container sprites together, bytes (`--sandbox-memory-total`; default sprite-resources.ts's), on
   * their shared parent cgroup where the daemon's cgroups are within reach (host-cgroups.ts).
   */
  memoryTotalBytes?: number;
  /** Processes and threads of all container sprites together (`--sandbox-pids-total`; default sprite-resources.ts's), likewise. */
  pidsTotal?: number;
  /** `--sandbox-cpu-yield-after`: ms a sprite may keep a core busy before it yields the CPU (0 never; cpu-yield.ts). */
  cpuYieldAfterMs?: number;
  /** The parent cgroup of every container sprite (default DEFAULT_CONTAINER_CGROUP_PARENT); tests give their own. */
  cgroupParent?: string;
  /** Where the sprites' records are kept on this host (default `defaultRecordDir(namespace)`, records.ts). */
  recordDir?: string;
  clock?: Clock;
  logger?: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
}

/** A checkpoint of a container sprite: an image committed from its writable layer. */
interface ContainerSnapshot extends MachineSnapshot {
  readonly kind: 'container';
  readonly spriteId: string;
  /** `repo:tag` of the committed image. */
  readonly image: string;
}

interface Shared {
  /** The runtime's box operations (Docker/Podman or Kubernetes). */
  boxes: BoxRuntime;
  /** The Engine API client on Docker and Podman (checkpoints, usage); absent on Kubernetes. */
  docker?: Docker;
  runtime: 'docker' | 'podman' | 'kubernetes';
  image: string;
  namespace: string;
  createTimeoutMs: number;
  /** The deadline of one agent call (ms). */
  agentTimeoutMs: number;
  /** Most stdin a command may leave unread (bytes; undefined: the agent client's default). */
  maxStdinBytes: number | undefined;
  archive: Buffer;
  limits: { memoryBytes: number; pids: number };
  socketDir: string;
  clock: Clock;
  logger?: ContainerFactoryOptions['logger'];
  /** Set by `detach()`: destroy lets go of containers instead of removing them. */
  detached: boolean;
  /** Whether the warning that the daemon cannot bound a container's disk was given (`warnUnboundedDisk`). */
  diskWarned?: boolean;
  /** The sprites' records, on this host (records.ts). */
  records: HostRecords;
  /** The shared parent cgroup and the CPU sampler, where the daemon's cgroups are within reach (host-cgroups.ts). */
  hostCgroups?: ContainerHostCgroups;
}

/**
 * Says once per factory, at warn level, that `--disk-quota` cannot be enforced: the daemon's storage driver has no
 * size option for a container's writable layer.
 * @deviation then a container sprite's disk is bounded by the daemon's disk only (docs/fidelity.md).
 */
function warnUnboundedDisk(shared: Shared): void {
  if (shared.diskWarned) return;
  shared.diskWarned = true;
  shared.logger?.warn(
    { runtime: shared.runtime },
    shared.runtime === 'kubernetes'
      ? "container engine: --disk-quota is not enforced on Kubernetes: a pod's ephemeral-storage limit evicts the whole pod instead of refusing the write (docs/container.md)"
      : "container engine: --disk-quota is not enforced: the daemon's storage driver has no size option for a container's layer (btrfs, zfs, or overlay2 on xfs with pquota have one; docs/container.md)",
  );
}


/** Docker's error for a missing object (404) or a name conflict (409). */
function statusOf(err: unknown): number | undefined {
  return (err as { statusCode?: number }).statusCode;
}

/** A Docker name/tag-safe form of `s` (lowercase letters, digits, `_`, `.`, `-`). */
export function dockerSafe(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9_.-]/g, '_');
}

/**
 * Creates container machines. `open()` reaches the runtime (runtime.ts), checks the image is present (pulling it
 * when it is not) and prepares the agent archive once; it removes containers an earlier spritzer of the same
 * namespace left behind.
 */
export class ContainerMachineFactory implements MachineFactory {
  readonly engine = 'container';
  /** Checkpoints are `docker commit`s (copies of the writable layer); none on Kubernetes (its API has no commit). */
  get snapshotMode(): 'copy' | 'none' {
    return this.runtime === 'kubernetes' ? 'none' : 'copy';
  }
  private readonly machines = new Set<ContainerMachine>();
  /** Creates in flight, settled or not: close() waits for them, so a half-made container is gone before it returns. */
  private readonly creating = new Set<Promise<unknown>>();
  private closed = false;

  private constructor(private readonly shared: Shared) {}

  /** The runtime that answered (`docker`, `podman` or `kubernetes`). */
  get runtime(): 'docker' | 'podman' | 'kubernetes' {
    return this.shared.runtime;
  }

  /** The Engine API client (tests and diagnostics); throws on Kubernetes. */
  get docker(): Docker {
    if (!this.shared.docker) throw new Error('no Docker Engine API on the kubernetes runtime');
    return this.shared.docker;
  }

  /** The container name of sprite `name` (`<namespace>-<name>`), or its pod name on Kubernetes (`sprite-<name>`). */
  containerName(name: string): string {
    return this.shared.runtime === 'kubernetes' ? `sprite-${name}` : `${this.shared.namespace}-${name}`;
  }

  /**
   * Prepares the engine. Rejects when no runtime answers (naming what was tried), when the image is missing and
   * cannot be pulled, or when the agent bundle cannot be built.
   */
  static async open(opts: ContainerFactoryOptions = {}): Promise<ContainerMachineFactory> {
    const namespace = opts.namespace ?? DEFAULT_NAMESPACE;
    const image = opts.image ?? DEFAULT_SPRITE_IMAGE;
    const kube = opts.kube ?? (opts.api ? undefined : await openKubeIfChosen(opts.runtime ?? 'auto'));
    const api = kube ? undefined : (opts.api ?? (await openEngineApi(opts.runtime ?? 'auto')));
    if (api) await ensureImage(api.docker, image, opts.logger);
    const files = opts.agent?.bundle ? { nodePtyDir: undefined, ...opts.agent } : { ...(await agentFiles()), ...opts.agent };
    // The run-as helper gives an exec session's processes their capabilities; it must be static, as it runs in the
    // image's userland, not the host's. The Kubernetes runtime's agent image carries no helper.
    // @deviation without a C compiler and libc.a on the host (or on Kubernetes) exec sessions run without them
    // (docs/fidelity.md "Root-level writes").
    const runAs = kube ? undefined : await staticRunAsHelper().catch((err: Error) => {
      opts.logger?.warn({ err: err.message }, 'container engine: no run-as helper: exec sessions run as the plain sprite user');
      return undefined;
    });
    const archive = await agentArchive(files.bundle!, files.nodePtyDir, runAs);
    if (!/^[a-z0-9][a-z0-9_.-]*$/.test(namespace)) throw new Error(`--namespace ${namespace}: use lowercase letters, digits, _ . -`);
    if (kube) {
      // Refused at start, naming each verb and resource, rather than at a first create or exec.
      const missing = await missingPermissions(kube.config, namespace);
      if (missing.length) {
        const user = kube.config.getCurrentUser()?.name ?? 'the configured user';
        throw new Error(
          `the Kubernetes user ${user} at ${kube.endpoint} may not ${missing.join(', ')} in namespace ${namespace} (RBAC): bind it a Role with these verbs, as deploy/k8s/rbac.yaml does`,
        );
      }
    }
    const socketDir = await mkdtemp(join(tmpdir(), 'spritzer-ctr-'));
    // `--api-socket`: the agent serves `/.sprite/api.sock` and installs the `/.sprite` files (it is not PID 1: Docker's init, or the pod's shared pause container, is).
    const entrypoint = ['node', '/.sprite/agent/agent.mjs', '--socket', AGENT_SOCKET_IN_SPRITE, '--api-socket', API_SOCKET_IN_SPRITE, ...(runAs ? ['--run-as', RUNAS_PATH] : [])];
    const resources = defaultSpriteResources();
    const hostCgroups = api
      ? await openContainerHostCgroups(api.docker, api.endpoint, {
        parent: opts.cgroupParent,
        memoryTotalBytes: opts.memoryTotalBytes ?? resources.memoryTotalBytes,
        pidsTotal: opts.pidsTotal ?? resources.pidsTotal,
        cpuYieldAfterMs: opts.cpuYieldAfterMs ?? resources.cpuYieldAfterMs,
        warn: (reason) => opts.logger?.warn(`container engine: ${reason}`),
        onYield: (cgroup, yielding) => opts.logger?.info({ cgroup, yielding }, yielding ? 'container engine: a busy sprite yields the CPU to the others' : 'container engine: a sprite is quiet again and gets its CPU weight back'),
      })
      : undefined;
    const boxes: BoxRuntime = kube
      ? new KubeBoxes(kube.config, namespace, { agentImage: opts.agentImage ?? DEFAULT_AGENT_IMAGE, entrypoint, timeoutMs: opts.createTimeoutMs ?? DEFAULT_CREATE_TIMEOUT_MS })
      : new DockerBoxes(api!.docker, api!.runtime, entrypoint, hostCgroups?.parent);
    const endpoint = kube ? kube.endpoint : api!.endpoint;
    const factory = new ContainerMachineFactory({
      boxes,
      docker: api?.docker,
      runtime: boxes.name,
      image,
      namespace,
      createTimeoutMs: opts.createTimeoutMs ?? DEFAULT_CREATE_TIMEOUT_MS,
      agentTimeoutMs: opts.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
      maxStdinBytes: opts.maxStdinBytes,
      archive,
      limits: { memoryBytes: opts.limits?.memoryBytes ?? resources.memoryBytes, pids: opts.limits?.pids ?? resources.pids },
      socketDir,
      records: new HostRecords(opts.recordDir ?? defaultRecordDir(namespace)),
      clock: opts.clock ?? new SystemClock(),
      logger: opts.logger,
      detached: false,
      hostCgroups,
    });
    const stale = opts.leftovers === 'remove' ? await factory.removeStale() : 0;
    opts.logger?.info({ runtime: boxes.name, endpoint, image, namespace, stale }, `container engine: ${boxes.name} at ${endpoint}`);
    return factory;
  }

  /** The containers of this namespace (running or not), as the daemon lists them. */
  private leftovers(): Promise<BoxInfo[]> {
    return this.shared.boxes.list({ [LABELS.managed]: 'true', [LABELS.namespace]: this.shared.namespace });
  }

  /** Containers of this namespace left by an earlier run, removed with their volumes (`leftovers: 'remove'`). */
  private async removeStale(): Promise<number> {
    const list = await this.leftovers();
    for (const c of list) await this.shared.boxes.remove(c.name).catch(() => undefined);
    return list.length;
  }

  /**
   * Adopts the containers of this namespace an earlier spritzer left (labels name the sprite and its id): each
   * is started when stopped, its agent re-attached through the exec bridge and the processes of the previous run
   * killed (their sessions are gone); its record (kept on this host, records.ts) gives back the sprite's fields, and its
   * checkpoint images are removed with the sprite. A container that cannot be re-attached is left as it is,
   * with a warning. @see MachineFactory.adoptExisting
   * @deviation the model's checkpoint list is not adopted: the images stay until the sprite is deleted.
   */
  async adoptExisting(): Promise<AdoptedMachine[]> {
    const out: AdoptedMachine[] = [];
    const found = await this.leftovers();
    // Records of sprites whose containers are gone are never read again.
    await this.shared.records.prune(new Set(found.map((c) => c.labels[LABELS.id]).filter((id): id is string => !!id)));
    for (const c of found) {
      const name = c.labels[LABELS.sprite];
      const id = c.labels[LABELS.id];
      if (!name || !id || c.name !== this.containerName(name)) continue;
      const spec: MachineSpec = { name, id };
      const machine = new ContainerMachine(spec, this.containerName(name), this.shared, () => this.machines.delete(machine));
      try {
        const record = await machine.attach();
        this.machines.add(machine);
        out.push({ spec, record: record ?? { createdAt: c.createdMs }, machine });
      } catch (err) {
        this.shared.logger?.warn({ sprite: name, err: (err as Error).message }, 'container engine: could not adopt a container left by an earlier run');
        await machine.letGo();
      }
    }
    return out;
  }

  /** From now on destroy() and close() keep the containers (spritzer is stopping; the next start adopts them). */
  detach(): void {
    this.shared.detached = true;
  }

  /** Containers are adopted at the next start instead of saved in a data dir (docs/container.md "Restarts"). */
  readonly persistence = undefined;

  /** Nothing to load ahead: the image is checked when the factory opens. */
  async warm(): Promise<void> {}

  /**
   * Creates the container (agent as entrypoint under the runtime's init, no network but loopback), copies the
   * agent in, starts it and resolves once the agent answers through the exec bridge. Rejects, removing what it
   * made, on failure or after `--create-timeout`.
   */
  create(spec: MachineSpec): Promise<ContainerMachine> {
    if (this.closed) return Promise.reject(new Error('container factory is closed'));
    const made = this.createOnce(spec);
    const settled = made.catch(() => undefined).finally(() => this.creating.delete(settled));
    this.creating.add(settled);
    return made;
  }

  private async createOnce(spec: MachineSpec): Promise<ContainerMachine> {
    const machine = new ContainerMachine(spec, this.containerName(spec.name), this.shared, () => this.machines.delete(machine));
    // Known from the start, so that a close() while it boots (spritzer stopping) ends it too.
    this.machines.add(machine);
    try {
      await machine.boot(this.shared.image);
      if (spec.record) await machine.remember(spec.record);
    } catch (err) {
      await machine.destroy().catch(() => undefined);
      // A destroy that came while the runtime was still making the container found none to remove; the create
      // failed, so no one will adopt or delete the container: it goes now (only one this create made: a name
      // conflict leaves the other container alone).
      if (machine.madeContainer) await this.shared.boxes.remove(machine.containerName).catch(() => undefined);
      // The client gets why (503 with the runtime's words), not a bare 500: the runtime, not the request, failed.
      if (err instanceof ModelError) throw err;
      throw new ModelError('sprite_unavailable', `sprite ${spec.name} could not be created: ${(err as Error).message}`);
    }
    return machine;
  }

  /**
   * Destroys every machine still alive (containers and checkpoint images), or after `detach()` only lets go of
   * them, and waits for the creates in flight to end (each removes the container it was making); then removes the
   * bridge sockets' dir.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.machines].map((m) => m.destroy().catch(() => undefined)));
    await Promise.all([...this.creating]);
    await this.shared.hostCgroups?.close();
    await rm(this.shared.socketDir, { recursive: true, force: true });
  }
}

/** Pulls `image` when the daemon does not have it. Rejects with a message saying how to provide it. */
async function ensureImage(docker: Docker, image: string, logger?: ContainerFactoryOptions['logger']): Promise<void> {
  try {
    await docker.getImage(image).inspect();
    return;
  } catch (err) {
    if (statusOf(err) !== 404) throw err;
  }
  logger?.info({ image }, 'container engine: pulling the sprite image');
  try {
    const stream = await docker.pull(image);
    const events = await new Promise<Array<{ error?: string; message?: string }>>((resolve, reject) =>
      docker.modem.followProgress(stream, (e: Error | null, out: Array<{ error?: string }>) => (e ? reject(e) : resolve(out ?? []))),
    );
    // Podman reports a failed pull as an event in a 200 stream: the image itself is the proof.
    await docker.getImage(image).inspect().catch(() => {
      const last = events.find((e) => e.error)?.error ?? events.at(-1)?.message ?? 'not found after the pull';
      throw new Error(last);
    });
  } catch (err) {
    throw new Error(`sprite image ${image} is not on the daemon and could not be pulled (${(err as Error).message}): build or import one, see docs/container.md`);
  }
}

/**
 * One container sprite. Processes run as the sprite user (1001) under the agent; pids come from a per-machine
 * counter. If the agent connection is lost (the container died), the container is started again and the
 * `onReboot` listeners run, so services come back.
 */
export class ContainerMachine extends AgentMachine implements Machine {
  readonly kind = 'container';
  readonly engine = 'container';
  private nextSnapshot = 1;
  private bridge?: AgentBridge;
  private readonly snapshots = new Set<string>();
  /** Checkpoint images still used by the container when released: removed at destroy. */
  private readonly releaseLater = new Set<string>();
  /** Bytes of each checkpoint image's own layer, learned once (imageLayerBytes). */
  private readonly layerBytes = new Map<string, number>();
  /** The image the current container was created from (the sprite image, or a checkpoint). */
  private currentImage = '';
  /** Aborted by destroy(), so a pending connection attempt never holds it up. */
  private readonly aborted = new AbortController();
  /** Numbers the bridge sockets of restart attempts. */
  private bridgeSeq = 0;
  /**
   * Whether the container is this machine's: made by its boot, or adopted (labelled with its sprite). Only such a
   * container is ever removed: a name conflict with a container or pod spritzer did not make leaves it alone.
   * @internal factory
   */
  madeContainer = false;

  /** @internal created by ContainerMachineFactory.create */
  constructor(
    readonly spec: MachineSpec,
    /** The container's name on the daemon. */
    readonly containerName: string,
    private readonly shared: Shared,
    private readonly onDestroyed: () => void,
  ) {
    super();
  }

  /**
   * Keeps the sprite's fields on spritzer's host (records.ts), for a later adoption; never inside the container,
   * whose root could rewrite them. @see Machine.remember
   */
  async remember(record: MachineRecord): Promise<void> {
    await this.shared.records.write(this.spec.id, record);
  }

  /**
   * Re-attaches to the existing container (adoption): starts it when stopped, connects to its agent, kills the
   * processes an earlier spritzer left, learns its checkpoint images, and resolves with its record (undefined
   * when it has none or it does not parse). @internal ContainerMachineFactory.adoptExisting
   */
  async attach(): Promise<MachineRecord | undefined> {
    this.madeContainer = true;
    await this.shared.boxes.start(this.containerName);
    this.currentImage = await this.shared.boxes.imageOf(this.containerName);
    const agent = await this.startAgent((generation) => this.connectOnly(generation));
    await agent.killAll();
    const repo = `${this.shared.namespace}-checkpoint`;
    const prefix = `${repo}:${dockerSafe(this.spec.id)}-`;
    for (const img of (await this.shared.docker?.listImages({ filters: { reference: [repo] } }).catch(() => [])) ?? []) {
      for (const tag of img.RepoTags ?? []) {
        if (!tag.startsWith(prefix)) continue;
        this.releaseLater.add(tag);
        this.nextSnapshot = Math.max(this.nextSnapshot, Number(tag.slice(prefix.length)) + 1 || this.nextSnapshot);
      }
    }
    return this.shared.records.read(this.spec.id);
  }

  /** Drops the agent and bridge and forgets the machine, leaving its container as it is. @internal */
  async letGo(): Promise<void> {
    this.aborted.abort();
    this.markDestroyed();
    await this.dropBridge();
    this.onDestroyed();
  }

  /** The container on Docker/Podman (checkpoints, usage); those operations reject on Kubernetes. */
  private get container(): Docker.Container {
    return this.dockerOnly().getContainer(this.containerName);
  }

  private dockerOnly(): Docker {
    if (!this.shared.docker) {
      // @deviation real Sprites always keep checkpoints; here the answer is 501 with these words (docs/fidelity.md).
      throw new ModelError(
        'checkpoints_unavailable',
        `checkpoints are not available on the ${this.shared.runtime} runtime of the container engine (its API cannot commit a container's disk): run spritzer with --container-runtime docker or podman for them (docs/container.md "Kubernetes")`,
      );
    }
    return this.shared.docker;
  }

  /**
   * Creates and starts the container from `image`, then connects to its agent. @internal factory, restore, reboot
   */
  async boot(image: string): Promise<void> {
    await this.startAgent((generation) => this.bootOnce(image, generation));
  }

  private async bootOnce(image: string, generation: number): Promise<AgentClient> {
    const { boxes, namespace, archive, createTimeoutMs, limits } = this.shared;
    this.currentImage = image;
    const created = await boxes.create({
      name: this.containerName,
      hostname: this.spec.name,
      image,
      labels: {
        [LABELS.managed]: 'true',
        [LABELS.namespace]: namespace,
        [LABELS.sprite]: this.spec.name,
        [LABELS.id]: this.spec.id,
      },
      archive,
      limits,
      ...(this.spec.diskQuotaBytes !== undefined ? { diskBytes: this.spec.diskQuotaBytes } : {}),
    });
    this.madeContainer = true;
    if (this.spec.diskQuotaBytes !== undefined && !created.diskLimited) warnUnboundedDisk(this.shared);
    await this.shared.hostCgroups?.place(created.pid);
    const socketPath = join(this.shared.socketDir, `${dockerSafe(this.spec.id)}-${generation}.sock`);
    const bridge = await startBridge(boxes, this.containerName, socketPath);
    let client: AgentClient;
    try {
      client = await this.connectAgent(socketPath, createTimeoutMs);
    } catch (err) {
      await bridge.close();
      const logs = await boxes.logs(this.containerName).catch(() => '');
      throw new Error(`sprite ${this.spec.name}: the agent in container ${this.containerName} did not answer: ${(err as Error).message} ${logs}`);
    }
    if (!this.isCurrent(generation)) {
      client.close();
      await bridge.close();
      throw new Error(`sprite ${this.spec.name} was stopped while booting`);
    }
    this.bridge = bridge;
    this.routeAccepted(client);
    this.takeAgent(client, generation);
    return client;
  }

  /**
   * The agent (or what a sprite's root wrote into the exec bridge) broke the protocol (AgentMachine): the agent is
   * dropped and the container killed (on Docker/Podman; kept, not removed, so its disk stays).
   */
  protected async stopFailed(reason: string): Promise<void> {
    this.shared.logger?.error({ sprite: this.spec.name, reason }, 'container: the sprite agent broke the protocol; sprite marked failed');
    await this.serialized(async () => {
      await this.dropBridge();
      await this.shared.docker?.getContainer(this.containerName).kill().catch(() => undefined);
    });
  }

  /**
   * The agent connection was lost on its own: start the container again (same disk), reconnect, tell listeners.
   * Calls made meanwhile wait for the restart. When it fails, they are refused with `sprite_unavailable` (503,
   * naming why) and the restart is tried again every RESTART_RETRY_MS until it succeeds or the sprite is deleted;
   * the sprite's record stays.
   */
  protected async onCrash(): Promise<void> {
    this.shared.logger?.warn({ sprite: this.spec.name }, 'container: sprite agent lost, restarting the container');
    // From now on, calls wait for the restarted agent instead of reaching the lost one.
    const generation = ++this.generation;
    this.agent = undefined;
    let settle!: (c: AgentClient | Promise<AgentClient>) => void;
    let fail!: (err: Error) => void;
    const next = new Promise<AgentClient>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    next.catch(() => undefined);
    this.ready = next;
    await this.serialized(async () => {
      if (this.destroyed) return fail(new Error(`sprite ${this.spec.name} is destroyed`));
      // A restore or another restart came first: wait for what it boots.
      if (generation !== this.generation) return settle(this.ready);
      await this.dropBridge();
      try {
        settle(await this.restartAndConnect(generation));
        this.rebooted();
      } catch (err) {
        fail(this.unreachable(err as Error));
        this.shared.logger?.error({ sprite: this.spec.name, err: (err as Error).message }, 'container: restart failed; trying again');
        this.retryLater(generation);
      }
    });
  }

  /** The refusal while the sprite cannot be restarted: `sprite_unavailable` naming the runtime's reason. */
  private unreachable(err: Error): ModelError {
    const why = err instanceof ModelError ? err.message : `its container could not be started again (${err.message})`;
    return new ModelError('sprite_unavailable', `sprite ${this.spec.name} is unreachable: ${why}; spritzer tries again every ${RESTART_RETRY_MS / 1000} s`);
  }

  /** Tries the restart of boot `generation` again after RESTART_RETRY_MS, while the sprite lives and nothing else booted it. */
  private retryLater(generation: number): void {
    const timer = setTimeout(() => {
      if (!this.isCurrent(generation)) return;
      void this.serialized(async () => {
        if (!this.isCurrent(generation)) return;
        try {
          const client = await this.restartAndConnect(generation, 1);
          this.ready = Promise.resolve(client);
          this.shared.logger?.info({ sprite: this.spec.name }, 'container: sprite reachable again');
          this.rebooted();
        } catch (err) {
          const failed = Promise.reject(this.unreachable(err as Error));
          failed.catch(() => undefined);
          this.ready = failed;
          this.retryLater(generation);
        }
      });
    }, RESTART_RETRY_MS);
    timer.unref();
  }

  /**
   * Starts the box again and connects to its agent, retrying (up to RESTART_ATTEMPTS): when the connection is lost
   * the box may still be stopping, so a first start finds it running (Docker's 304) and the bridge's exec dies
   * with it. Rejects with the last attempt's error.
   */
  private async restartAndConnect(generation: number, attempts = RESTART_ATTEMPTS): Promise<AgentClient> {
    let last: Error = new Error('not started');
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (this.destroyed || generation !== this.generation) throw new Error(`sprite ${this.spec.name} was stopped while restarting`);
      try {
        await this.shared.boxes.start(this.containerName);
        // Every attempt but the last gets a shorter wait, so a bridge that hangs on a dying box is retried soon.
        const timeoutMs = attempt < attempts ? Math.min(this.shared.createTimeoutMs, 15_000) : this.shared.createTimeoutMs;
        return await this.connectOnly(generation, attempt, timeoutMs);
      } catch (err) {
        last = err as Error;
        // The runtime itself does not answer, or the box's node is away: trying again now would only wait.
        if ((err as { unavailable?: boolean }).unavailable) throw last;
        this.shared.logger?.warn({ sprite: this.spec.name, attempt, err: last.message }, 'container: restart attempt failed');
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    throw last;
  }

  private async connectOnly(generation: number, attempt = 0, timeoutMs = this.shared.createTimeoutMs): Promise<AgentClient> {
    // Each attempt its own socket (a later retry of the same boot must not meet an earlier attempt's file).
    const socketPath = join(this.shared.socketDir, `${dockerSafe(this.spec.id)}-${generation}${attempt ? `-${++this.bridgeSeq}` : ''}.sock`);
    // An exec the runtime refuses for a reason waiting does not cure (its API or the box's node is away: `unavailable`)
    // ends the attempt at once, with the runtime's words, instead of after the timeout.
    let refused: Error | undefined;
    const giveUp = new AbortController();
    const bridge = await startBridge(this.shared.boxes, this.containerName, socketPath, 'node', (err) => {
      if (!(err as { unavailable?: boolean }).unavailable || refused) return;
      refused = err;
      giveUp.abort();
    });
    const client = await this.connectAgent(socketPath, timeoutMs, giveUp.signal).catch(async (err) => {
      await bridge.close();
      throw refused ?? err;
    });
    this.bridge = bridge;
    this.takeAgent(client, generation);
    return client;
  }

  /** AgentClient.connect through the bridge socket, given up at once when the sprite is destroyed (or `also` aborts) meanwhile. */
  private connectAgent(socketPath: string, timeoutMs: number, also?: AbortSignal): Promise<AgentClient> {
    const signal = also ? AbortSignal.any([this.aborted.signal, also]) : this.aborted.signal;
    if (signal.aborted) return Promise.reject(new Error(`sprite ${this.spec.name} is destroyed`));
    const attempt = AgentClient.connect(socketPath, { timeoutMs, signal, timing: { clock: this.shared.clock, timeoutMs: this.shared.agentTimeoutMs }, stdinMax: this.shared.maxStdinBytes });
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new Error(`sprite ${this.spec.name} is destroyed`));
      signal.addEventListener('abort', onAbort, { once: true });
      attempt.then(
        (client) => {
          signal.removeEventListener('abort', onAbort);
          if (signal.aborted) client.close();
          else resolve(client);
        },
        (err: Error) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      );
    });
  }

  /** Drops the agent connection and closes its exec bridge. */
  private async dropBridge(): Promise<void> {
    const { bridge } = this;
    this.bridge = undefined;
    this.dropAgent();
    await bridge?.close();
  }

  /** Drops the agent and removes the container (its anonymous volumes with it), when it is this machine's. */
  private async teardown(): Promise<void> {
    await this.dropBridge();
    if (this.madeContainer) await this.shared.boxes.remove(this.containerName);
  }

  /**
   * Commits the container's writable layer to the image `<namespace>-checkpoint:<id>-<n>` (the container is
   * paused for the commit, so the copy is consistent; processes go on afterwards). Cost: a copy of what the sprite
   * wrote since its image, plus the commit (docs/fidelity.md "Container engine: checkpoints").
   * @deviation real checkpoints are live copy-on-write; this one pauses the container while the layer is copied.
   */
  snapshot(): Promise<MachineSnapshot> {
    return this.serialized(async () => {
      this.assertLive();
      await this.assertCheckpointRoom();
      const repo = `${this.shared.namespace}-checkpoint`;
      const tag = `${dockerSafe(this.spec.id)}-${this.nextSnapshot++}`;
      await this.container.commit({ repo, tag, pause: true, comment: `spritzer checkpoint of sprite ${this.spec.name}` });
      const image = `${repo}:${tag}`;
      this.snapshots.add(image);
      const snap: ContainerSnapshot = { kind: 'container', spriteId: this.spec.id, image };
      return snap;
    });
  }

  /**
   * Refuses a checkpoint (`checkpoint_no_space`) when the copy it would make (what the sprite wrote since its image,
   * `SizeRw`) and what its other checkpoint images hold pass the sprite's disk quota: a commit copies the layer, so
   * checkpoints take real space, and together they never hold more than the quota. The live layer has its own bound
   * (the storage option `size`, fixed while the container runs), so what a sprite stores stays within twice its quota.
   * Nothing is refused without a quota, nor on Kubernetes (no checkpoints there).
   */
  private async assertCheckpointRoom(): Promise<void> {
    const quota = this.spec.diskQuotaBytes;
    if (quota === undefined || !this.shared.docker) return;
    const live = ((await this.container.inspect({ size: true } as Docker.ContainerInspectOptions)) as { SizeRw?: number }).SizeRw ?? 0;
    let held = 0;
    for (const image of new Set([...this.snapshots, ...this.releaseLater])) held += await this.imageLayerBytes(image);
    if (held + live <= quota) return;
    throw new ModelError(
      'checkpoint_no_space',
      `no space left on device: the checkpoint (a copy of the ${live} bytes the sprite wrote) and its other checkpoints (${held} bytes) would pass its disk quota (${quota} bytes); delete checkpoints or files to make room`,
    );
  }

  /** Bytes a checkpoint image's own layer holds (the newest entry of its history); cached, as an image never changes. */
  private async imageLayerBytes(image: string): Promise<number> {
    const known = this.layerBytes.get(image);
    if (known !== undefined) return known;
    const history = (await this.dockerOnly().getImage(image).history().catch(() => [])) as Array<{ Size?: number }>;
    const bytes = history[0]?.Size ?? 0;
    this.layerBytes.set(image, bytes);
    return bytes;
  }

  /**
   * Removes the container and creates it again from the checkpoint's image, with the same name, labels and
   * settings, then waits for its agent. Rejects, touching nothing, for a released snapshot or another sprite's.
   */
  async restore(snapshot: MachineSnapshot): Promise<void> {
    const snap = this.asOwn(snapshot);
    return this.serialized(async () => {
      this.assertLive();
      if (!this.snapshots.has(snap.image)) throw new Error(`checkpoint image ${snap.image} was released`);
      await this.dockerOnly().getImage(snap.image).inspect();
      this.generation++;
      await this.dropBridge();
      // The old container is kept (stopped, renamed) until the new one answers, so a failed restore loses nothing.
      const previous = this.dockerOnly().getContainer((await this.container.inspect()).Id);
      const previousImage = this.currentImage;
      await previous.kill().catch(() => undefined);
      await previous.rename({ name: `${this.containerName}-restoring` });
      try {
        await this.boot(snap.image);
      } catch (err) {
        await this.dropBridge();
        await this.container.remove({ force: true, v: true }).catch(() => undefined);
        await previous.rename({ name: this.containerName });
        await previous.start().catch(() => undefined);
        this.currentImage = previousImage;
        this.ready = this.connectOnly(++this.generation);
        this.ready.catch(() => undefined);
        throw err;
      }
      await previous.remove({ force: true, v: true }).catch(() => undefined);
    });
  }

  async releaseSnapshot(snapshot: MachineSnapshot): Promise<void> {
    const snap = this.asOwn(snapshot);
    if (!this.snapshots.delete(snap.image)) return;
    await this.removeImage(snap.image);
  }

  private async removeImage(image: string): Promise<void> {
    try {
      await this.dockerOnly().getImage(image).remove();
      this.releaseLater.delete(image);
      this.layerBytes.delete(image);
    } catch (err) {
      if (statusOf(err) === 404) return;
      // In use by the live container (restored from it): removed when the sprite goes.
      this.releaseLater.add(image);
    }
  }

  private asOwn(snapshot: MachineSnapshot): ContainerSnapshot {
    const s = snapshot as Partial<ContainerSnapshot>;
    if (s.kind !== 'container' || s.spriteId !== this.spec.id || !s.image) throw new Error(`not a snapshot of container sprite ${this.spec.id}`);
    return s as ContainerSnapshot;
  }

  /**
   * Bytes the sprite wrote (the container's writable layer, `SizeRw`) and the number of paths it added or changed
   * (`docker diff`): not a walk inside, which would count the whole image.
   * The quota is the daemon's (`BoxSpec.diskBytes`), enforced inside; where its storage driver has no size option
   * it is not enforced (docs/fidelity.md "Container engine: disk quota").
   */
  async usage(): Promise<{ bytes: number; files: number }> {
    this.assertLive();
    // @deviation on Kubernetes the container's writable layer is not measurable through the API: 0 (docs/fidelity.md).
    if (!this.shared.docker) return { bytes: 0, files: 0 };
    const info = (await this.container.inspect({ size: true } as Docker.ContainerInspectOptions)) as { SizeRw?: number };
    const changes = ((await this.container.changes()) as Array<{ Kind: number; Path: string }> | null) ?? [];
    const files = changes.filter((c) => c.Kind !== 2 && !c.Path.startsWith('/.sprite')).length;
    return { bytes: info.SizeRw ?? 0, files };
  }

  /** At shutdown: the container outlives spritzer through the factory's `detach()`, so halting is `destroy()`. */
  halt(): Promise<void> {
    return this.destroy();
  }

  /**
   * Removes the container with its volumes, then every checkpoint image of the sprite. After the factory's
   * `detach()` (spritzer stopping) it only lets go: the container and its images stay for the next start.
   */
  destroy(): Promise<void> {
    this.aborted.abort();
    return this.serialized(async () => {
      if (this.destroyed) return;
      if (this.shared.detached) return this.letGo();
      this.markDestroyed();
      await this.teardown();
      for (const image of [...this.snapshots, ...this.releaseLater]) {
        await this.dockerOnly().getImage(image).remove({ force: true }).catch(() => undefined);
      }
      this.snapshots.clear();
      this.releaseLater.clear();
      await this.shared.records.remove(this.spec.id).catch(() => undefined);
      this.onDestroyed();
    });
  }
}

/** The run-as helper when the host links it statically; rejects, saying what to install, otherwise. */
async function staticRunAsHelper(): Promise<string> {
  const helper = await runAsHelper();
  if (!(await isStaticElf(helper))) throw new Error('the host links the run-as helper only dynamically: apt-get install -y libc6-dev (libc.a)');
  return helper;
}
