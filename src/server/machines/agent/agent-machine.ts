/**
 * What a Machine whose sprite runs the in-sprite agent (sandbox, container) does the same way on both engines: the
 * agent of the current boot (`ready`), a per-machine lock, spawning (at once, or deferred while the agent boots),
 * connecting, ports, watches that follow the agent across reboots, and the failed state a protocol violation leaves.
 * It does not boot anything: how the agent starts (bubblewrap, a container), crash recovery, snapshots, usage and
 * the end of a machine are each engine's.
 */
import type { Duplex } from 'node:stream';
import { ModelError } from '../../core/errors.ts';
import type { ExecIO, ExecProcess, ExecRequest, ExecStartOptions, ListeningPort, MachineFs, MachineRecord, MachineSpec, VfsChange } from '../port.ts';
import type { NetworkPolicy } from '../../core/network-policy.ts';
import type { AgentClient } from './client.ts';
import { deferredProcess, fsThrough } from './through.ts';
import { EXEC_CAPS } from './native.ts';
import { SPRITE_GID, SPRITE_PROCESS_GROUPS, SPRITE_UID } from '../../../protocol/sprite-tree.ts';


/** A `watch` of the machine, re-attached to the agent of every boot (`stop` ends it on the current one). */
type WatchEntry = { path: string; recursive: boolean; listener: (changes: VfsChange[]) => void; stop?: () => void };

/**
 * The agent lifecycle shared by SandboxMachine and ContainerMachine. An engine boots its agent and hands it over
 * with `startAgent` / `takeAgent`; every boot bumps `generation`, so work begun for an older boot (a connection
 * attempt, a crash handler) sees it is stale and stops. Calls made while no agent answers wait on `ready`, which
 * rejects while the sprite is failed or not booted.
 */
export abstract class AgentMachine {
  /** The sprite's name and id. */
  abstract readonly spec: MachineSpec;
  /** The filesystem, every call through the agent of the current boot (waiting for it while it boots). */
  readonly fs: MachineFs;
  /** The agent of the current boot, while connected. */
  protected agent?: AgentClient;
  /** Resolves with the agent of the current boot; replaced at every (re)boot, rejected while the sprite is failed. */
  protected ready: Promise<AgentClient> = Promise.reject(new Error('sprite not booted'));
  /** Counts boots and stops: a boot or crash handler of an older generation is stale. */
  protected generation = 0;
  protected destroyed = false;
  /** Why the sprite is failed (see `bootFailure`); set through `setFailure`, which tells the listeners. */
  private failure: string | undefined;
  private readonly failureListeners = new Set<() => void>();
  private nextPid = 1;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly rebootListeners = new Set<() => void>();
  private readonly watches = new Set<WatchEntry>();
  /** Who answers the in-sprite API (`/.sprite/api.sock`); connections without one are reset. */
  private apiListener: ((conn: Duplex) => void) | undefined;

  protected constructor() {
    this.ready.catch(() => undefined);
    this.fs = fsThrough(() => this.agentReady());
  }

  /**
   * Why the sprite is failed, or undefined: the error of its last boot, or its agent broke the protocol. While it
   * is set, every operation but restore and delete is refused naming it; a boot that succeeds (a restore) clears it.
   * @see Machine.bootFailure
   * @deviation real Sprites' answer for a sprite that cannot boot is unknown: spritzer says 503 (docs/fidelity.md).
   */
  get bootFailure(): string | undefined {
    return this.failure;
  }

  /** Registers `listener`, called after every reboot that follows a crash (not after `restore`). Returns an unsubscribe. */
  onReboot(listener: () => void): () => void {
    this.rebootListeners.add(listener);
    return () => this.rebootListeners.delete(listener);
  }

  /** Registers `listener`, called whenever `bootFailure` changes (Machine port). Returns an unsubscribe. */
  onBootFailureChange(listener: () => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  /** Sets or clears `bootFailure` and tells the listeners when it changed. */
  protected setFailure(failure: string | undefined): void {
    if (failure === this.failure) return;
    this.failure = failure;
    for (const l of this.failureListeners) l();
  }

  /** The in-sprite API's connections go to `listener` (Machine port). Returns an unsubscribe. */
  onApiConnection(listener: (conn: Duplex) => void): () => void {
    this.apiListener = listener;
    return () => void (this.apiListener === listener && (this.apiListener = undefined));
  }

  /**
   * Starts `req` as the sprite user under the agent, with the next pid of this machine (never reused while it
   * lives): an exec session's process with the file capabilities `EXEC_CAPS`, a service's (`req.service`) without. While the agent boots, the process is returned at once and starts when the agent answers (through.ts).
   */
  spawn(req: ExecRequest, io: ExecIO, opts: ExecStartOptions): ExecProcess {
    const pid = this.nextPid++;
    const full = { ...req, env: this.execEnv(req.env), uid: SPRITE_UID, gid: SPRITE_GID, groups: [...SPRITE_PROCESS_GROUPS], caps: req.service ? [] : [...EXEC_CAPS] };
    if (this.agent && !this.destroyed) return this.agent.spawn(full, io, { ...opts, pid });
    return deferredProcess(pid, io, this.agentReady().then((a) => a.spawn(full, io, { ...opts, pid })));
  }

  /** A stream to `host:port` as seen inside the sprite, opened by the agent. */
  async connect(host: string, port: number): Promise<Duplex> {
    return (await this.agentReady()).connect(host, port);
  }

  /** The TCP ports listening inside the sprite, as the agent lists them. */
  async listeningPorts(): Promise<ListeningPort[]> {
    return (await this.agentReady()).listeningPorts();
  }

  /** Watches `path` through the agent, again on every later boot's agent until the returned stop is called. */
  watch(path: string, opts: { recursive: boolean }, listener: (changes: VfsChange[]) => void): () => void {
    const entry: WatchEntry = { path, recursive: opts.recursive, listener };
    this.watches.add(entry);
    if (this.agent) entry.stop = this.agent.watch(path, opts, listener);
    return () => {
      this.watches.delete(entry);
      entry.stop?.();
    };
  }

  /** Kills every process the agent started (the agent stays); the disk stays. */
  async stop(): Promise<void> {
    await (await this.agentReady()).killAll();
  }

  /** The environment a spawned process gets from its request's (default: as given). */
  protected execEnv(env: Record<string, string>): Record<string, string> {
    return env;
  }

  /** The agent of the current boot, once it answers; rejects when the machine is destroyed, failed or not booted. */
  protected agentReady(): Promise<AgentClient> {
    if (this.destroyed) return Promise.reject(new Error(`sprite ${this.spec.name} is destroyed`));
    return this.ready;
  }

  /** Throws when the machine is destroyed (the text every operation refusing then uses). */
  protected assertLive(): void {
    if (this.destroyed) throw new Error(`sprite ${this.spec.name} is destroyed`);
  }

  /** Runs `fn` after every earlier call of this machine settled (boots, restores, snapshots, the end), one at a time. */
  protected serialized<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.lock.then(fn, fn);
    this.lock = next.catch(() => undefined);
    return next;
  }

  /** Whether `generation` is still the current boot of a live machine. */
  protected isCurrent(generation: number): boolean {
    return generation === this.generation && !this.destroyed;
  }

  /**
   * Runs `start` as a new boot (its generation given): `ready` waits for it, and its success clears `bootFailure`.
   * Resolves with the agent, or rejects with `start`'s error.
   */
  protected startAgent(start: (generation: number) => Promise<AgentClient>): Promise<AgentClient> {
    const generation = ++this.generation;
    const attempt = start(generation).then((client) => {
      this.setFailure(undefined);
      return client;
    });
    this.ready = attempt;
    attempt.catch(() => undefined);
    return attempt;
  }

  /**
   * Routes the connections `client` accepts inside the sprite: `claim` may take one first (the egress gate), the
   * in-sprite API's go to the `onApiConnection` listener, and every other is reset.
   */
  protected routeAccepted(client: AgentClient, claim?: (conn: Duplex, listener: string) => boolean | undefined): void {
    client.onAccept = (conn, listener) => {
      if (claim?.(conn, listener)) return;
      if (listener === 'api' && this.apiListener) this.apiListener(conn);
      else conn.destroy();
    };
  }

  /**
   * Makes `client` the agent of boot `generation`: the watches move onto it, and when its connection is lost (or
   * `exited` resolves: the sprite's box is gone) while that boot is current, the sprite is marked failed if the
   * agent broke the protocol, else `onCrash` runs.
   */
  protected takeAgent(client: AgentClient, generation: number, exited?: Promise<unknown>): void {
    this.agent = client;
    for (const w of this.watches) w.stop = client.watch(w.path, { recursive: w.recursive }, w.listener);
    const lost = () => {
      if (!this.isCurrent(generation)) return;
      if (client.violation !== undefined) void this.onViolation(client.violation);
      else void this.onCrash(generation);
    };
    void client.closed.then(lost);
    if (exited) void exited.then(lost);
  }

  /** Forgets the agent of the current boot and closes its connection (the watches wait for the next one). */
  protected dropAgent(): void {
    const { agent } = this;
    this.agent = undefined;
    for (const w of this.watches) w.stop = undefined;
    agent?.close();
  }

  /** Marks the machine destroyed: boots in flight become stale, calls reject, the watches are forgotten. */
  protected markDestroyed(): void {
    this.destroyed = true;
    this.generation++;
    this.watches.clear();
  }

  /** Calls the `onReboot` listeners (after a reboot that followed a crash). */
  protected rebooted(): void {
    for (const l of this.rebootListeners) l();
  }

  /** Kept with the machine only by engines whose machines outlive spritzer (the container engine overrides it). */
  async remember(_record: MachineRecord): Promise<void> {}

  /** Enforced only by engines with an egress gate (the sandbox engine overrides it). */
  setNetworkPolicy(_policy: NetworkPolicy): void {}

  /** The agent of boot `generation` was lost without breaking the protocol: the engine boots the sprite again. */
  protected abstract onCrash(generation: number): Promise<void>;

  /**
   * The sprite was just marked failed for `reason` (a protocol violation): the engine logs it in its words and
   * stops what the sprite runs, without booting it again.
   */
  protected abstract stopFailed(reason: string): Promise<void>;

  /**
   * The agent broke the protocol (bounds.ts): root inside took over its connection, or the agent is not ours.
   * Nothing the sprite runs is trusted any more, so the sprite is stopped and marked failed (`bootFailure`: listed
   * `cold`, every operation but restore and delete refused) instead of being rebooted into the same hands; a
   * restore boots it again. Other sprites are not touched.
   * @see docs/security.md "The agent's connection"
   * @deviation real Sprites' answer is unknown: the sprite stays failed until a restore (docs/fidelity.md).
   */
  private async onViolation(reason: string): Promise<void> {
    this.generation++;
    this.setFailure(`the sprite's agent broke the protocol (${reason}); the sprite was stopped`);
    const failed = Promise.reject(new ModelError('sprite_unavailable', `sprite ${this.spec.name} failed: ${this.failure}; restore one of its checkpoints or delete it`));
    failed.catch(() => undefined);
    this.ready = failed;
    await this.stopFailed(reason);
  }
}
