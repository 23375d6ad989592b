/**
 * The in-memory machine: a sprite whose disk is the persistent in-memory `Vfs` and whose processes are run by an
 * in-memory exec engine (`shell` = just-bash, `interpreter` = the seed's table). Snapshots are VFS roots (O(1)).
 * It owns the process table of the sprite (so `stop` can end every process) and the change feed of its disk; it
 * has no network: `connect` is refused unless the engine offers a dial hook (tests inject one).
 * @see docs/architecture.md "Machines and engines"
 */
import type { Duplex } from 'node:stream';
import type { Clock } from '../../core/clock.ts';
import { Vfs, type VfsSnapshot } from './vfs.ts';
import { startLogged, withTap } from './service-log.ts';
import { VfsError, type AdoptedMachine, type MachineRecord, type ExecIO, type ExecProcess, type ExecRequest, type ExecStartOptions, type ListeningPort, type Machine, type MachineFactory, type MachineFs, type MachineSnapshot, type MachineSpec, type VfsChange, type VfsEntry, type VfsStat } from '../port.ts';
import type { ExecEngine, SpriteContext } from './engine.ts';
import { duplexPair } from '../../core/duplex-pair.ts';
import type { EngineLoader } from './load.ts';
import { MemoryPersistence } from './persistence.ts';
import { newLinuxTree } from './linux-skeleton.ts';
import { commOf, ProcessTable } from './processes.ts';
import { joinHostPort } from '../../../protocol/messages.ts';
import type { NetworkPolicy } from '../../core/network-policy.ts';

/** A snapshot of a memory machine: the VFS root at that moment. */
interface MemorySnapshot extends MachineSnapshot {
  readonly kind: 'memory';
  readonly root: VfsSnapshot;
}

/**
 * The `noFollow` walk of `MachineFs.writeFile` on a VFS: a symlink in an ancestor of `path` is ELOOP, one at `path`
 * is removed so that the write replaces it. (The VFS holds no host path; the walk keeps the engines alike.)
 */
function replaceLinks(vfs: Vfs, path: string): void {
  const parts = path.split('/').filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const at = `/${parts.slice(0, i).join('/')}`;
    let type: string;
    try {
      type = vfs.lstat(at).type;
    } catch {
      return;
    }
    if (type !== 'symlink') continue;
    if (i < parts.length) throw new VfsError('ELOOP', at);
    vfs.rm(at);
  }
}

/**
 * The `MachineFs` of a `Vfs`: the same operations, asynchronous, with the sizes the fs API reports. One small object
 * per sprite whose methods live on the class (a dozen closures per sprite cost about 3 KiB of heap each time).
 */
class VfsMachineFs implements MachineFs {
  constructor(private readonly vfs: Vfs) {}

  async readFile(path: string, range?: { offset: number; length: number }): Promise<Uint8Array> {
    return range ? this.vfs.readFileShared(path).slice(range.offset, range.offset + range.length) : this.vfs.readFile(path);
  }

  async writeFile(path: string, data: Uint8Array, { noFollow, ...opts }: Parameters<MachineFs['writeFile']>[2] = {}): Promise<VfsStat> {
    if (noFollow) replaceLinks(this.vfs, path);
    this.vfs.writeFile(path, data, opts);
    return this.vfs.stat(path);
  }

  async stat(path: string): Promise<VfsStat> {
    return this.vfs.stat(path);
  }

  async lstat(path: string): Promise<VfsStat> {
    return this.vfs.lstat(path);
  }

  /** One iterative walk over the tree (linear in its size, any depth), not a lookup from the root per directory. */
  async readdir(path: string, opts: Parameters<MachineFs['readdir']>[1] = {}): ReturnType<MachineFs['readdir']> {
    return this.vfs.readdir(path, opts);
  }

  async mkdir(path: string, opts?: Parameters<MachineFs['mkdir']>[1]): ReturnType<MachineFs['mkdir']> {
    return this.vfs.mkdir(path, opts);
  }

  async rm(path: string, opts?: Parameters<MachineFs['rm']>[1]): ReturnType<MachineFs['rm']> {
    return this.vfs.rm(path, opts);
  }

  async rename(source: string, dest: string): ReturnType<MachineFs['rename']> {
    return this.vfs.rename(source, dest);
  }

  async copy(source: string, dest: string, opts?: Parameters<MachineFs['copy']>[2]): ReturnType<MachineFs['copy']> {
    return this.vfs.copy(source, dest, opts).map((c) => {
      const st: VfsStat = this.vfs.lstat(c.dest);
      return { ...c, size: st.type === 'file' ? st.size : 0 };
    });
  }

  async chmod(path: string, mode: number, opts?: Parameters<MachineFs['chmod']>[2]): ReturnType<MachineFs['chmod']> {
    return this.vfs.chmod(path, mode, opts);
  }

  async chown(path: string, uid: number, gid: number, opts?: Parameters<MachineFs['chown']>[3]): ReturnType<MachineFs['chown']> {
    return this.vfs.chown(path, uid, gid, opts);
  }
}

/** The `MachineFs` of a `Vfs` ({@link VfsMachineFs}). */
export function vfsMachineFs(vfs: Vfs): MachineFs {
  return new VfsMachineFs(vfs);
}

/** A sprite as an in-memory machine. */
export class MemoryMachine implements Machine {
  readonly kind = 'memory';
  /** An in-memory machine always boots. */
  readonly bootFailure = undefined;
  readonly fs: MachineFs;
  readonly vfs: Vfs;
  private readonly ctx: SpriteContext;
  /** Every process of the sprite, from its start until it exits (`ps`, `kill`, and what `stop` ends). */
  readonly processes = new ProcessTable();
  private nextPid = 1;
  private destroyed = false;
  /** Who answers the in-sprite API (`onApiConnection`); none outside a server. */
  private apiListener: ((conn: Duplex) => void) | undefined;

  /** A fresh skeleton disk with the Linux directories and `/etc` files (`newLinuxTree`: the common part shared between sprites), unless `opts.vfs` gives one; pids count from 1 unless `opts.allocatePid` gives them (unit tests). */
  constructor(
    spec: MachineSpec,
    private readonly execEngine: ExecEngine,
    private readonly clock: Clock,
    opts: { vfs?: Vfs; allocatePid?: () => number } = {},
  ) {
    this.vfs = opts.vfs ?? newLinuxTree(spec.name, () => clock.now(), clock, { quotaBytes: spec.diskQuotaBytes, quotaFiles: spec.maxFiles });
    this.fs = vfsMachineFs(this.vfs);
    this.ctx = {
      name: spec.name,
      vfs: this.vfs,
      allocatePid: opts.allocatePid ?? (() => this.nextPid++),
      processes: this.processes,
      openApi: () => this.openApi(),
      bootedAt: clock.now(),
    };
  }

  get engine(): string {
    return this.execEngine.name;
  }

  /**
   * Runs the command in the engine; the process is in the sprite's process table until it exits (its parent is pid
   * 1, the sprite's init, as an exec's command is on Sprites).
   */
  spawn(req: ExecRequest, io: ExecIO, opts: ExecStartOptions): ExecProcess {
    if (this.destroyed) throw new Error('machine destroyed');
    const run = (to: ExecIO) => this.execEngine.start(this.ctx, req, to, opts);
    const proc: ExecProcess = req.log ? startLogged(this.fs, req.log, io, run) : withTap(run(io), () => undefined);
    this.processes.add({
      pid: proc.pid,
      ppid: 1,
      args: req.argv.join(' '),
      comm: commOf(req.argv[0] ?? req.path ?? ''),
      startedAt: this.clock.now(),
      tty: req.tty ? 'pts/0' : null,
      signal: (name) => proc.signal(name),
      exit: proc.exit,
    });
    return proc;
  }

  /** Dials through the engine's hook when it has one; otherwise nothing listens (`ECONNREFUSED`). */
  async connect(host: string, port: number): Promise<Duplex> {
    if (this.execEngine.connect) return this.execEngine.connect(this.ctx, host, port);
    throw Object.assign(new Error(`dial tcp ${joinHostPort(host, port)}: connect: connection refused`), { code: 'ECONNREFUSED' });
  }

  /**
   * The in-sprite API (`/.sprite/api.sock` on the real engines): an in-memory connection whose other end goes to the
   * last `onApiConnection` listener, the engine's `sprite-env` speaking HTTP on it. Undefined without a listener.
   */
  private openApi(): Duplex | undefined {
    const listener = this.apiListener;
    if (!listener || this.destroyed) return undefined;
    const [inside, host] = duplexPair();
    listener(host);
    return inside;
  }

  /** Registers who answers the in-sprite API (src/server/url/in-sprite-api.ts); the last one registered does. */
  onApiConnection(listener: (conn: Duplex) => void): () => void {
    this.apiListener = listener;
    return () => {
      if (this.apiListener === listener) this.apiListener = undefined;
    };
  }

  /** In-memory processes never listen. */
  async listeningPorts(): Promise<ListeningPort[]> {
    return [];
  }

  /**
   * Change feed by diffing VFS snapshots after each change; the diff skips unchanged subtrees by reference,
   * so its cost follows the size of the change.
   */
  watch(path: string, opts: { recursive: boolean }, listener: (changes: VfsChange[]) => void): () => void {
    let last = this.vfs.snapshot();
    return this.vfs.onChange(() => {
      const next = this.vfs.snapshot();
      const changes = Vfs.diff(last, next, path, opts);
      last = next;
      if (changes.length > 0) listener(changes);
    });
  }

  async snapshot(): Promise<MachineSnapshot> {
    const snap: MemorySnapshot = { kind: 'memory', root: this.vfs.snapshot() };
    return snap;
  }

  async restore(snapshot: MachineSnapshot): Promise<void> {
    if (snapshot.kind !== 'memory') throw new TypeError(`cannot restore a ${snapshot.kind} snapshot on a memory machine`);
    await this.stop();
    this.vfs.restore((snapshot as MemorySnapshot).root);
  }

  /** Snapshots are plain references; the garbage collector frees them. */
  async releaseSnapshot(): Promise<void> {}

  async usage(): Promise<{ bytes: number; files: number }> {
    return { bytes: this.vfs.totalBytes(), files: this.vfs.fileCount() };
  }

  /** Ends every process of the sprite (exec commands and the jobs that outlived them) with KILL, and waits for them. */
  async stop(): Promise<void> {
    const live = this.processes.list();
    for (const p of live) p.signal('KILL');
    await Promise.all(live.map((p) => p.exit));
  }

  async destroy(): Promise<void> {
    await this.stop();
    this.destroyed = true;
  }

  /** The disk lives in this process: halting is destroying (with `--data-dir`, its rows are already saved). */
  halt(): Promise<void> {
    return this.destroy();
  }

  /** An in-memory machine never reboots by itself. */
  onReboot(_listener: () => void): () => void {
    return () => undefined;
  }

  /** An in-memory machine always boots. */
  onBootFailureChange(_listener: () => void): () => void {
    return () => undefined;
  }

  /** Nothing outlives the process, so nothing is kept with the machine. */
  async remember(_record: MachineRecord): Promise<void> {}

  /** Nothing inside reaches a network, so there is nothing to enforce. */
  setNetworkPolicy(_policy: NetworkPolicy): void {}
}

/**
 * Creates in-memory machines that all run one exec engine: given loaded, or as a loader whose engine is imported on
 * the first `create` (or `warm`), so that a server starts without it (docs/performance.md "Start").
 */
export class MemoryMachineFactory implements MachineFactory {
  readonly snapshotMode = 'structural' as const;
  /** The data dir keeps each sprite's tree as rows (persistence.ts). */
  readonly persistence: MemoryPersistence;

  constructor(
    private readonly execEngine: ExecEngine | EngineLoader,
    private readonly clock: Clock,
  ) {
    this.persistence = new MemoryPersistence((spec, vfs) => this.create(spec, { vfs }), () => clock.now());
  }

  get engine(): string {
    return this.execEngine.name;
  }

  /** Loads the engine now if it is not loaded yet (the server calls this once it listens). Rejects as `create`. */
  async warm(): Promise<void> {
    await this.loadedEngine();
  }

  /** A new machine; `opts.vfs` gives it an existing disk (a sprite rebuilt from the data dir, src/server/store). */
  async create(spec: MachineSpec, opts: { vfs?: Vfs } = {}): Promise<MemoryMachine> {
    return new MemoryMachine(spec, await this.loadedEngine(), this.clock, opts);
  }

  private loadedEngine(): ExecEngine | Promise<ExecEngine> {
    return 'load' in this.execEngine ? this.execEngine.load() : this.execEngine;
  }

  async close(): Promise<void> {}

  /** In-memory machines die with the process: there is never one to adopt. */
  async adoptExisting(): Promise<AdoptedMachine[]> {
    return [];
  }

  /** In-memory machines die with the process: nothing to let go of. */
  detach(): void {}
}
