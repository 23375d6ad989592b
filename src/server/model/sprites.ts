/**
 * The sprites model: sprites keyed by name, their lifecycle status, checkpoints, and their typed subsystems
 * (exec sessions, services, tasks, policies) over the sprite's Machine (docs/wire-reference.md §3, §7). It knows no HTTP:
 * failures are `ModelError`s; wire shapes are built in `src/server/http/wire.ts`. It never touches a disk or a
 * process itself: everything goes through the sprite's `Machine` (src/server/machines/port.ts).
 */
import type { Clock } from '../core/clock.ts';
import type { IdSource } from '../core/ids.ts';
import type { Machine, MachineFactory, MachineRecord, MachineSnapshot } from '../machines/port.ts';
import { SortedNames } from './sorted-names.ts';
import { ModelError } from '../core/errors.ts';
import { SessionRegistry } from './sessions.ts';
import { checkSpriteFields } from './sprite-fields.ts';
import { CheckpointHistory } from './checkpoint-history.ts';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';
import { ServiceManager } from './services.ts';
import { TaskRegistry } from './tasks.ts';
import { SpritePolicies } from './sprite-policies.ts';
import { autoCheckpointsToDrop, autoIdStamp, nextAutoId, preRestoreComment, type AutoCheckpointBounds } from './auto-checkpoints.ts';
import { StatusCounts } from './status-counts.ts';

/** A sprite's lifecycle status (docs/wire-reference.md §3.1, §13). */
export type SpriteStatus = 'cold' | 'warm' | 'running';

/**
 * Time from create to the end of the first boot, in ms: the create response says `cold` (§3.2), and from then on
 * the sprite is `running` (booted), decaying as any activity does. Clients that wait for `warm` or `running` after
 * a create rely on it. @deviation real boot times vary (1–2 s cold wake, §13); ours is fixed.
 */
export const BOOT_AFTER_MS = 1_000;
/** Idle time after which a running sprite is `warm` (§13: "~30 s idle → warm"). */
export const WARM_AFTER_MS = 30_000;
/** Idle time after which a sprite is `cold`. @deviation real Sprites pick this themselves; we use 5 minutes. */
export const COLD_AFTER_MS = 5 * 60_000;

/** `url_settings` (§3.1). */
export interface UrlSettings {
  auth: 'sprite' | 'public';
  privateAccess?: string;
}

/** A checkpoint: an immutable snapshot of the filesystem (§7.2). */
export interface Checkpoint {
  id: string;
  createTime: number;
  comment: string;
  sourceId: string | null;
  /** Ancestor ids, oldest first, shared with the parent's (linear space; `toArray()` renders it). */
  history: CheckpointHistory;
  /** Taken by a restore of the state it replaced (`auto-…`, auto-checkpoints.ts), not on request (`v<n>`). */
  isAuto: boolean;
  /** The machine's snapshot of the disk. */
  snapshot: MachineSnapshot;
}

/** A sprite. */
export class Sprite {
  /** Exec sessions (§4.7–4.9). */
  readonly sessions: SessionRegistry;
  /** Services (§9). */
  readonly services: ServiceManager;
  /** Tasks (§12). */
  readonly tasks: TaskRegistry;
  /** Network and other policies (§10). */
  readonly policies: SpritePolicies;
  readonly checkpoints: Checkpoint[] = [];
  updatedAt: number;
  private activeAt: number | null = null;
  private startedAt: number | null = null;
  /** When the first boot completes (create time + `BOOT_AFTER_MS`). */
  private readonly bootedAt: number;
  labels: string[];
  urlSettings: UrlSettings;
  /** The checkpoint the live state descends from (the last created or restored), or null. */
  currentCheckpointId: string | null = null;
  private nextCheckpoint = 1;
  /** The millisecond the last automatic checkpoint id named (0: none yet), so those ids never repeat. */
  private lastAutoStamp = 0;
  /** How many automatic checkpoints the sprite keeps, and for how long. */
  private readonly autoBounds: AutoCheckpointBounds;
  /** The checkpoints restores are under way to, once per restore (their snapshots must outlive any dropping meanwhile). */
  private readonly restoring: string[] = [];

  constructor(
    readonly id: string,
    readonly name: string,
    readonly organization: string,
    readonly createdAt: number,
    /** The sprite URL, or how to compute it when it depends on where spritzer listens (`SpritesModel.urlFor`). */
    url: string | (() => string),
    init: CreateSpriteInput,
    /** The machine the sprite runs on: its disk, processes and network. */
    readonly machine: Machine,
    private readonly clock: Clock,
    /** Caps of the sprite's subsystems (services) and of its automatic checkpoints; default DEFAULT_LIMITS. */
    limits?: Pick<Limits, 'servicesMax' | 'serviceNeedsMax' | 'serviceDefinitionsMaxBytes'> & Partial<Pick<Limits, 'autoCheckpointsMax' | 'autoCheckpointMaxAgeMs'>>,
  ) {
    this.urlOf = typeof url === 'string' ? () => url : url;
    this.updatedAt = createdAt;
    // The first boot counts from when the machine is ready (a container can take longer than the boot itself).
    this.bootedAt = Math.max(createdAt, clock.now()) + BOOT_AFTER_MS;
    this.labels = [...(init.labels ?? [])];
    this.urlSettings = init.urlSettings ?? { auth: 'sprite' };
    this.config = init.config;
    this.environment = init.environment;
    this.autoBounds = {
      keep: limits?.autoCheckpointsMax ?? DEFAULT_LIMITS.autoCheckpointsMax,
      maxAgeMs: limits?.autoCheckpointMaxAgeMs ?? DEFAULT_LIMITS.autoCheckpointMaxAgeMs,
    };
    const onActivity = () => this.touch();
    this.sessions = new SessionRegistry({ clock, machine, onActivity });
    this.services = new ServiceManager({ clock, machine, onActivity, limits });
    this.tasks = new TaskRegistry({ clock, onChange: onActivity });
    this.policies = new SpritePolicies(machine.fs, (policy) => machine.setNetworkPolicy(policy));
    machine.onReboot(() => void this.rebooted());
    machine.onBootFailureChange(() => this.onStatusInput?.());
  }
  /**
   * Called whenever something its status is computed from changes other than the clock: activity (which every start
   * and end of a command, service or task records) and the machine's boot failure. The model's org counters use it.
   */
  onStatusInput: (() => void) | undefined;
  readonly config: Record<string, unknown> | undefined;
  readonly environment: Record<string, string> | undefined;
  private readonly urlOf: () => string;

  /** The sprite URL (§11): `https://<name>-<orgid>.<public-url host>`, or by default the local one that reaches it. */
  get url(): string {
    return this.urlOf();
  }

  /** Whether the first boot has completed (epoch ms on the injected clock). */
  private booted(now: number): boolean {
    return now >= this.bootedAt;
  }

  /** The last activity (epoch ms), the end of the first boot counting as one; null before any. */
  get lastActiveAt(): number | null {
    const boot = this.booted(this.clock.now()) ? this.bootedAt : null;
    if (this.activeAt === null) return boot;
    return boot === null ? this.activeAt : Math.max(this.activeAt, boot);
  }

  /** When the sprite last went from not running to running (epoch ms); null before the first boot or activity. */
  get lastStartedAt(): number | null {
    if (this.startedAt !== null) return this.startedAt;
    return this.booted(this.clock.now()) ? this.bootedAt : null;
  }

  /** Records activity: the sprite is `running` now. */
  touch(): void {
    const now = this.clock.now();
    if (this.status() !== 'running') this.startedAt = now;
    this.activeAt = now;
    this.onStatusInput?.();
  }

  /**
   * Current status, computed from activity on the injected clock; never blocks. `cold` from create until the
   * first boot completes (1 s) unless something ran; `running` while a command, service or task is live or within
   * 30 s of the last activity (the boot counts); `warm` up to 5 minutes idle; then `cold`.
   */
  status(): SpriteStatus {
    return this.statusAt(this.clock.now()).status;
  }

  /**
   * The status at `now` (epoch ms) and until when it holds if nothing but the clock changes (Infinity: until
   * something happens, {@link onStatusInput}): the end of the first boot, 30 s after the last activity, 5 minutes.
   */
  statusAt(now: number): { status: SpriteStatus; until: number } {
    // A machine that could not boot runs nothing: `cold` (the only status the API has for it; the why is in
    // /_spritzer/state `boot_error` and in every refused operation's message).
    if (this.machine.bootFailure !== undefined) return { status: 'cold', until: Infinity };
    if (this.sessions.busy || this.services.busy() || this.tasks.busy()) return { status: 'running', until: Infinity };
    // Until the first boot ends, its end is a change too (it counts as activity).
    const boot = this.booted(now) ? Infinity : this.bootedAt;
    const last = this.lastActiveAt;
    if (last === null) return { status: 'cold', until: boot };
    const idle = now - last;
    if (idle < WARM_AFTER_MS) return { status: 'running', until: Math.min(boot, last + WARM_AFTER_MS) };
    if (idle < COLD_AFTER_MS) return { status: 'warm', until: Math.min(boot, last + COLD_AFTER_MS) };
    return { status: 'cold', until: boot };
  }

  /**
   * Takes checkpoint `vN` (ids never reused) from a live snapshot of the machine's disk: nothing stops, and the
   * cost is O(1) in the size of the disk where the machine's storage allows it (§7.1, §7.7).
   */
  async createCheckpoint(comment: string): Promise<Checkpoint> {
    const snapshot = await this.machine.snapshot();
    const cp = this.addCheckpoint(snapshot, `v${this.nextCheckpoint++}`, comment, false, this.clock.now());
    this.currentCheckpointId = cp.id;
    this.touch();
    return cp;
  }

  /**
   * Records a checkpoint of the live state taken at `createTime` (epoch ms), which descends from the current
   * checkpoint (its `sourceId`, the end of its `history`), after the others.
   */
  private addCheckpoint(snapshot: MachineSnapshot, id: string, comment: string, isAuto: boolean, createTime: number): Checkpoint {
    const parent = this.currentCheckpointId ? this.findCheckpoint(this.currentCheckpointId) : undefined;
    const cp: Checkpoint = {
      id,
      createTime,
      comment,
      sourceId: parent?.id ?? null,
      history: parent ? parent.history.append(parent.id) : CheckpointHistory.EMPTY,
      isAuto,
      snapshot,
    };
    this.checkpoints.push(cp);
    return cp;
  }

  /** Whether a restore first takes an automatic checkpoint of the state it replaces (`--auto-checkpoints` above 0). */
  get takesAutoCheckpoints(): boolean {
    return this.autoBounds.keep > 0;
  }

  /**
   * The checkpoints newest first, automatic ones only with `includeAuto` (§7.3); automatic ones past their bounds
   * are dropped first.
   */
  listCheckpoints(opts: { includeAuto: boolean }): Checkpoint[] {
    this.dropAutoCheckpoints();
    const out: Checkpoint[] = [];
    for (let i = this.checkpoints.length - 1; i >= 0; i--) {
      const c = this.checkpoints[i];
      if (opts.includeAuto || !c.isAuto) out.push(c);
    }
    return out;
  }

  /**
   * Takes the automatic checkpoint a restore to `targetId` starts with: a live snapshot of the state about to be
   * replaced, like any checkpoint (its cost is the machine's), id `auto-<ms>`, taking no `v<n>`. A snapshot that
   * fails fails the restore before anything is touched, except on a sprite that failed to boot (a restore is how it
   * is recovered) or one whose checkpoints fill its disk quota: those go on without one.
   * @see docs/fidelity.md "Automatic checkpoints"
   */
  private async takePreRestoreCheckpoint(targetId: string): Promise<void> {
    let snapshot: MachineSnapshot;
    try {
      snapshot = await this.machine.snapshot();
    } catch (err) {
      if (this.machine.bootFailure !== undefined) return;
      // No room to keep the state being replaced (its checkpoints fill the quota): a restore is also how space is
      // given back, so it goes on without the automatic checkpoint.
      if (err instanceof ModelError && err.kind === 'checkpoint_no_space') return;
      throw err;
    }
    // Its create_time is the millisecond its id names (one later than the clock when two fall in one millisecond).
    const { id, stamp } = nextAutoId(this.clock.now(), this.lastAutoStamp);
    this.lastAutoStamp = stamp;
    this.addCheckpoint(snapshot, id, preRestoreComment(targetId), true, stamp);
  }

  /**
   * Drops the automatic checkpoints beyond the sprite's bounds, releasing their snapshots; never the current one nor
   * one a restore is under way to.
   */
  private dropAutoCheckpoints(): void {
    const kept = new Set([this.currentCheckpointId, ...this.restoring]);
    for (const cp of autoCheckpointsToDrop(this.checkpoints, this.autoBounds, this.clock.now(), kept)) this.removeCheckpoint(cp);
  }

  /** Forgets a checkpoint and releases its snapshot (a release that fails leaves only a leftover on the host). */
  private removeCheckpoint(cp: Checkpoint): void {
    this.checkpoints.splice(this.checkpoints.indexOf(cp), 1);
    void this.machine.releaseSnapshot(cp.snapshot).catch(() => undefined);
  }

  /** The number the next checkpoint gets (`v<n>`; ids are never reused). Persistence hook (src/server/store). */
  get nextCheckpointNumber(): number {
    return this.nextCheckpoint;
  }

  /**
   * Persistence hook (src/server/store): the checkpoints, current checkpoint and id counter saved before a
   * restart, and the times the sprite last changed and was last active (epoch ms).
   */
  restorePersisted(saved: { checkpoints: Checkpoint[]; currentCheckpointId: string | null; nextCheckpoint: number; updatedAt: number }): void {
    this.checkpoints.splice(0, this.checkpoints.length, ...saved.checkpoints);
    this.lastAutoStamp = saved.checkpoints.reduce((last, c) => Math.max(last, autoIdStamp(c.id) ?? 0), 0);
    this.currentCheckpointId = saved.currentCheckpointId;
    this.nextCheckpoint = saved.nextCheckpoint;
    this.updatedAt = saved.updatedAt;
  }

  /** A checkpoint by id (automatic ones past their bounds are dropped first), or ModelError `checkpoint_not_found`. */
  getCheckpoint(id: string): Checkpoint {
    this.dropAutoCheckpoints();
    const cp = this.findCheckpoint(id);
    if (!cp) throw new ModelError('checkpoint_not_found', `checkpoint not found: ${id}`);
    return cp;
  }

  private findCheckpoint(id: string): Checkpoint | undefined {
    return this.checkpoints.find((c) => c.id === id);
  }

  /**
   * Restores checkpoint `id`: first an automatic checkpoint of the live state (unless `takesAutoCheckpoints` is
   * false), then running exec sessions and services end, the machine's disk becomes the snapshot, services come back
   * from their definitions, the policy copy is rewritten, and the sprite is running (§7.5). The automatic checkpoints
   * beyond the bounds go once the restored one is current (so restoring an old automatic one never drops it).
   */
  async restoreCheckpoint(id: string): Promise<Checkpoint> {
    const cp = this.getCheckpoint(id);
    this.restoring.push(cp.id);
    try {
      if (this.takesAutoCheckpoints) await this.takePreRestoreCheckpoint(cp.id);
      await this.services.suspend();
      await this.sessions.endAll();
      await this.machine.restore(cp.snapshot);
      this.currentCheckpointId = cp.id;
    } finally {
      this.restoring.splice(this.restoring.indexOf(cp.id), 1);
    }
    this.dropAutoCheckpoints();
    await this.afterReboot();
    return cp;
  }

  /** Restarts the sprite: commands end, services come back from their definitions, files stay. */
  async restart(): Promise<void> {
    await this.services.suspend();
    await this.sessions.endAll();
    await this.machine.stop();
    await this.afterReboot();
  }

  /** The machine rebooted by itself: its processes are gone; services and the policy copy come back. */
  private async rebooted(): Promise<void> {
    await this.services.suspend();
    await this.sessions.endAll();
    await this.afterReboot();
  }

  /** What follows any reboot of the machine (restore, restart, a crashed sandbox agent): services and policy copy come back. */
  async afterReboot(): Promise<void> {
    await this.policies.afterRestore();
    this.services.afterRestore();
    this.touch();
  }

  /** Deletes a checkpoint; the current one is ModelError `checkpoint_current` (§7.6). */
  deleteCheckpoint(id: string): void {
    if (id === 'Current' || id === this.currentCheckpointId) {
      this.getCheckpoint(id === 'Current' ? (this.currentCheckpointId ?? id) : id);
      throw new ModelError('checkpoint_current', 'cannot delete active checkpoint');
    }
    this.removeCheckpoint(this.getCheckpoint(id));
  }

  /**
   * Ends everything the sprite runs and destroys its machine (disk, snapshots). With `keepDisk` (server shutdown) the
   * machine halts instead, keeping its disk for the next run where its engine can (`Machine.halt`).
   */
  async shutdown(opts: { keepDisk?: boolean } = {}): Promise<void> {
    await this.services.shutdown();
    this.tasks.shutdown();
    await this.sessions.endAll();
    await (opts.keepDisk ? this.machine.halt() : this.machine.destroy());
  }
}

/** Input of `create` (camelCase domain form of §3.2). */
export interface CreateSpriteInput {
  name: string;
  urlSettings?: UrlSettings;
  labels?: string[];
  config?: Record<string, unknown>;
  environment?: Record<string, string>;
}

/** Input of `update` (§3.5): omitted fields are unchanged. */
export interface UpdateSpriteInput {
  urlSettings?: UrlSettings;
  labels?: string[];
  clearLabels?: boolean;
}

/** A page of `list` (§3.3). */
export interface SpritePage {
  sprites: Sprite[];
  hasMore: boolean;
  nextContinuationToken: string | null;
}

/** Largest page `list` returns; SDK list-all helpers ask for 100 and get clamped (§3.3). */
export const MAX_PAGE_SIZE = 50;

/** Dependencies of the model. */
export interface SpritesModelDeps {
  clock: Clock;
  ids: IdSource;
  /** Creates each sprite's machine (the `--exec` engine). */
  machines: MachineFactory;
  organization: string;
  /**
   * `--public-url`: the base sprite URLs are built from, e.g. `https://sprites.app` → `https://<name>-<orgid>.sprites.app`
   * (a deployment behind a real domain). Unset: the local URL `<listening address>/s/<name>` (`localBase`).
   */
  publicUrl?: string;
  /** Size limits of labels/config/environment, the disk quota of each machine, services (default DEFAULT_LIMITS). */
  limits?: Limits;
  /** Sprite URLs that are origins of their own (a port per sprite, url/sprite-origins.ts); absent: the path form. */
  origins?: SpriteOriginRegistry;
}

/**
 * Gives each sprite a URL of its own (an address only that sprite answers on). The model opens one when a sprite is
 * created and releases it when the sprite is deleted; whoever loads or adopts sprites opens theirs.
 */
export interface SpriteOriginRegistry {
  /** Gives sprite `name` its own URL; resolves once it answers. Never rejects (the sprite keeps the path form). */
  open(name: string): Promise<void>;
  /** The sprite's own URL, or undefined when it has none. */
  urlOf(name: string): string | undefined;
  /** Frees the sprite's URL and ends its connections. */
  release(name: string): Promise<void>;
}

/** Valid sprite names: a DNS label, since the name becomes part of the sprite URL's hostname (§11). */
export const SPRITE_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** All sprites of the emulated organization. */
export class SpritesModel {
  private readonly sprites = new Map<string, Sprite>();
  /** The keys of `sprites` in ascending order, so a page of `list` costs O(log n + page), not a sort of them all. */
  private readonly names = new SortedNames();
  /** Names whose machine is being created: taken, but not yet listed. */
  private readonly creating = new Set<string>();
  /** The org counters, kept as sprites come, go and change status (status-counts.ts). */
  private readonly statusCounts = new StatusCounts<SpriteStatus, Sprite>(['running', 'warm', 'cold']);

  constructor(readonly deps: SpritesModelDeps) {}

  /**
   * Creates a sprite (`cold`, a fresh machine with the skeleton filesystem); ModelError `invalid_sprite_name`,
   * or `sprite_exists` if the name is taken (also while another create of that name is booting its machine).
   */
  async create(input: CreateSpriteInput): Promise<Sprite> {
    if (!SPRITE_NAME_PATTERN.test(input.name)) {
      throw new ModelError('invalid_sprite_name', `invalid sprite name: ${JSON.stringify(input.name)}`);
    }
    if (this.sprites.has(input.name) || this.creating.has(input.name)) {
      throw new ModelError('sprite_exists', `a sprite named ${input.name} already exists`);
    }
    checkSpriteFields(input, this.deps.limits);
    const { clock, ids, machines, organization } = this.deps;
    const id = ids.spriteId();
    const now = clock.now();
    this.creating.add(input.name);
    let machine: Machine;
    try {
      machine = await machines.create({ name: input.name, id, diskQuotaBytes: this.deps.limits?.diskQuotaBytes, maxFiles: this.deps.limits?.filesMax, record: recordOf(input, now) });
      // The create's answer carries the url: the sprite's own address answers before it is shown.
      await this.deps.origins?.open(input.name);
    } finally {
      this.creating.delete(input.name);
    }
    const sprite = new Sprite(id, input.name, organization, now, () => this.urlFor(input.name), input, machine, clock, this.deps.limits);
    this.enlist(sprite);
    return sprite;
  }

  /** Lists `sprite` and counts it in the org counters from now on. */
  private enlist(sprite: Sprite): void {
    this.sprites.set(sprite.name, sprite);
    this.names.add(sprite.name);
    sprite.onStatusInput = () => this.statusCounts.changed(sprite);
    this.statusCounts.add(sprite);
  }

  /** Persistence hook (src/server/store): puts back a sprite rebuilt from the data dir at start. */
  adopt(sprite: Sprite): void {
    if (this.sprites.has(sprite.name)) throw new ModelError('sprite_exists', `a sprite named ${sprite.name} already exists`);
    this.enlist(sprite);
  }

  /** A sprite by name, or ModelError `sprite_not_found`. */
  get(name: string): Sprite {
    const s = this.sprites.get(name);
    if (!s) throw new ModelError('sprite_not_found', 'sprite not found');
    return s;
  }

  /**
   * A page of sprites ordered by name. `maxResults` is clamped to 1..50; `continuationToken` is the opaque
   * token of the previous page. `hasMore` is true exactly when a token is returned.
   */
  list(opts: { prefix?: string; maxResults?: number; continuationToken?: string }): SpritePage {
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, opts.maxResults ?? MAX_PAGE_SIZE));
    const after = opts.continuationToken ? decodeToken(opts.continuationToken) : null;
    // One more than the page tells whether there is more.
    const names = this.names.page(opts.prefix ?? '', after, size + 1);
    const page = names.slice(0, size).map((n) => this.sprites.get(n)!);
    const hasMore = names.length > size;
    return { sprites: page, hasMore, nextContinuationToken: hasMore ? encodeToken(page[page.length - 1].name) : null };
  }

  /** All sprites (admin state view). */
  all(): Sprite[] {
    return [...this.sprites.values()];
  }

  /**
   * How many sprites are running, warm and cold now (the org counters of every listing page, §3.3). Only the sprites
   * that changed, or whose status the clock changed, since the last count are looked at, so listing all N sprites a
   * page at a time costs O(N) in all, not O(N) per page.
   */
  orgCounts(): Record<SpriteStatus, number> {
    return this.statusCounts.at(this.deps.clock.now());
  }

  /** Partial update (§3.5). */
  update(name: string, input: UpdateSpriteInput): Sprite {
    const s = this.get(name);
    checkSpriteFields(input, this.deps.limits);
    if (input.urlSettings) s.urlSettings = { ...input.urlSettings };
    if (input.clearLabels) s.labels = [];
    if (input.labels) s.labels = [...input.labels];
    s.updatedAt = this.deps.clock.now();
    // Machines that outlive spritzer keep the fields for the next start (model/adopt.ts); a failure only loses that.
    s.machine.remember(recordOf(s, s.createdAt)).catch(() => undefined);
    return s;
  }

  /** Deletes a sprite with its checkpoints, sessions and services; later calls answer `sprite_not_found`. */
  async delete(name: string): Promise<void> {
    const s = this.get(name);
    this.sprites.delete(name);
    this.names.remove(name);
    s.onStatusInput = undefined;
    this.statusCounts.remove(s);
    await Promise.all([s.shutdown(), this.deps.origins?.release(name)]);
  }

  /**
   * Deletes every sprite (admin reset, server shutdown). `keepDisks` (server shutdown): machines that can keep their
   * disks for the next run (`Machine.halt`) do.
   */
  async clear(opts: { keepDisks?: boolean } = {}): Promise<void> {
    const all = this.all();
    this.sprites.clear();
    this.names.clear();
    for (const s of all) s.onStatusInput = undefined;
    this.statusCounts.clear();
    await Promise.all(all.flatMap((s) => [s.shutdown({ keepDisk: opts.keepDisks }), this.deps.origins?.release(s.name)]));
  }

  /**
   * Where spritzer listens (e.g. `http://127.0.0.1:4290`), set once it does (`startServer`): the base of the local
   * sprite URL when there is no `publicUrl`. Until then, the default address `http://127.0.0.1:4290`.
   */
  localBase = 'http://127.0.0.1:4290';

  /**
   * The sprite URL of `name` (§11). With `publicUrl`: `<scheme>://<name>-<orgid>.<host>[:port]`, the production shape.
   * Without: the sprite's own address from `origins` (`http://<host>:<port>`, a port of its own), else
   * `<localBase>/s/<name>`, path-routed to the sprite (src/server/url/sprite-url.ts).
   * @deviation Production's `https://<name>-<orgid>.sprites.app` needs DNS; no host form of that shape resolves on a
   * machine without a resolver for it (`*.localhost` is resolved by curl, not by getaddrinfo: Node fetch, Python,
   * Go), so the default URL is a port of the sprite's own on spritzer's address (docs/fidelity.md "Sprite URL: address").
   */
  urlFor(name: string): string {
    if (this.deps.publicUrl === undefined) return this.deps.origins?.urlOf(name) ?? `${this.localBase}/s/${name}`;
    const u = new URL(this.deps.publicUrl);
    u.hostname = `${name}-${orgSuffix(this.deps.organization)}.${u.hostname}`;
    return u.toString().replace(/\/$/, '');
  }
}

/** The fields a machine that outlives spritzer keeps for a later adoption (src/server/model/adopt.ts). */
function recordOf(s: Pick<CreateSpriteInput, 'labels' | 'urlSettings' | 'config' | 'environment'>, createdAt: number): MachineRecord {
  return { createdAt, labels: s.labels, urlSettings: s.urlSettings, config: s.config, environment: s.environment };
}

/** A short stable id for the organization, like the `bhmkr` of real sprite URLs (§11). */
function orgSuffix(org: string): string {
  let h = 2166136261;
  for (const ch of org) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  let out = '';
  for (let i = 0; i < 5; i++) {
    out += String.fromCharCode(97 + (h % 26));
    h = Math.floor(h / 26) + (i + 1) * 7919;
  }
  return out;
}

function encodeToken(name: string): string {
  return Buffer.from(name, 'utf8').toString('base64url');
}

function decodeToken(token: string): string {
  const name = Buffer.from(token, 'base64url').toString('utf8');
  if (!name || !SPRITE_NAME_PATTERN.test(name)) throw new ModelError('invalid_request', 'invalid continuation_token');
  return name;
}
