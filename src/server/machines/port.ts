/**
 * The Machine port: the one interface through which everything above a sprite (routes, sessions, services,
 * checkpoints, the watches, the proxy, the sprite URL, the data dir) touches it, in one file: processes, the
 * filesystem vocabulary and path checks, machines, factories and their persistence. Every engine implements it: the
 * in-memory machine (the VFS with the `shell` or `interpreter` engine), the sandbox machine (a real Linux machine
 * under bubblewrap with the in-sprite agent) and the container machine. It owns no HTTP, no sessions, no ids of
 * checkpoints: those live in the model above it.
 * @see docs/architecture.md "Machines and engines"
 */
import type { Duplex } from 'node:stream';
import { posixErrorText } from '../../protocol/posix-errors.ts';
import { normalizePath } from '../../protocol/paths.ts';
import type { FileEntry, FileNodeType, FileStat, ProcessSpec } from '../../protocol/agent.ts';
import type { NetworkPolicy } from '../core/network-policy.ts';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';

// ---- Processes ----

/** What to run (the fields of the agent's SPAWN message without its owner: src/protocol/agent.ts `ProcessSpec`). */
export type ExecRequest = ProcessSpec;

/**
 * Where a command's output goes. The caller passes these sinks to `start()` so the relay exists before the
 * command runs: a fast command can never lose output. In TTY mode engines write everything to `stdout`.
 */
export interface ExecIO {
  stdout(data: Uint8Array): void;
  stderr(data: Uint8Array): void;
}

/** A running command. */
export interface ExecProcess {
  /** Process id, unique per sprite; the session id is its decimal string. */
  readonly pid: number;
  /** Feed stdin bytes (ignored after `endStdin`). */
  writeStdin(data: Uint8Array): void;
  /** Stdin reached EOF. */
  endStdin(): void;
  /** Terminal resize (TTY only; a no-op otherwise). */
  resize(cols: number, rows: number): void;
  /** Deliver a signal by name without `SIG` prefix (`TERM`, `KILL`, `INT`, `HUP`, …). */
  signal(name: string): void;
  /**
   * For a process started with a `log` (ExecRequest): whether its output also reaches `io` from now on (it always
   * reaches the log). A no-op for other processes.
   */
  tap(on: boolean): void;
  /** Resolves with the exit code (0–255; 128+n when killed by signal n). Never rejects. */
  readonly exit: Promise<number>;
  /**
   * The process id inside the machine, once the machine has said it (an agent's STARTED frame), where it is not
   * `pid` (the session's number): what `ps` inside shows, a service's `state.pid`. Undefined before, and where
   * `pid` is that id already (the in-memory engines).
   */
  readonly osPid?: number;
}

/** Options every engine honours. */
export interface ExecStartOptions {
  /**
   * Whether the client will send stdin. When false the engine runs with empty stdin at once.
   * When true, an engine that needs all stdin up front (just-bash) waits for EOF or for `stdinGraceMs`
   * (`stdinWaitMs` for a script that may read stdin) without a stdin frame, whichever comes first (docs/fidelity.md).
   */
  stdin: boolean;
}

// ---- The filesystem vocabulary ----

export { normalizePath };

/** POSIX error codes a machine's filesystem raises. @see docs/wire-reference.md §8.9 */
export type VfsErrorCode =
  | 'ENOENT'
  | 'EEXIST'
  | 'ENOTDIR'
  | 'EISDIR'
  | 'ENOTEMPTY'
  | 'EINVAL'
  | 'ELOOP'
  | 'EACCES'
  | 'EPERM'
  | 'ENAMETOOLONG'
  | 'ENOSPC'
  /** The sprite's agent did not answer within its deadline (agent-backed engines only). */
  | 'ETIMEDOUT';

/**
 * A filesystem error with a POSIX `code` and the normalised absolute `path` it concerns. The message reads like
 * Node's, e.g. `ENOENT: no such file or directory, open '/x'`; `syscall` names the operation (`open`, `mkdir`,
 * `scandir`, `rm`, `rename`, `copyfile`, `chmod`, `chown`, `symlink`, `readlink`, `stat`, `lstat`, `utime`).
 * @see docs/wire-reference.md §8.9 (the HTTP layer maps `code` to a status and the `{error, code, path}` envelope)
 */
export class VfsError extends Error {
  constructor(
    readonly code: VfsErrorCode,
    readonly path: string,
    readonly syscall = 'open',
  ) {
    // No stack trace: a VfsError is an answer (ENOENT, EEXIST…), thrown on every missed lookup of a command's
    // file probes, and capturing the stack was the largest cost of such a miss (docs/performance.md "Exec").
    super(withoutStack(`${code}: ${posixErrorText(code)}, ${syscall} '${path}'`));
    Error.stackTraceLimit = savedStackTraceLimit;
    this.name = 'VfsError';
  }
}

let savedStackTraceLimit = Error.stackTraceLimit;
/** Turns stack capture off for the one `Error` constructor call that follows (VfsError restores the limit). */
function withoutStack(message: string): string {
  savedStackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return message;
}

/** The kind of a node, named as the fs list API names it (src/protocol/agent.ts `FileNodeType`). */
export type VfsNodeType = FileNodeType;

/** What `stat`/`lstat` report, on every engine (src/protocol/agent.ts `FileStat`: units and meaning). */
export type VfsStat = FileStat;

/** One directory entry (src/protocol/agent.ts `FileEntry`). */
export type VfsEntry = FileEntry;

/** One change found by `Vfs.diff` (the event names of the fs watch API, docs/wire-reference.md §6.3). */
export interface VfsChange {
  path: string;
  event: 'create' | 'write' | 'remove' | 'chmod';
  isDir: boolean;
  /** Size after the change (0 for removals and directories). */
  size: number;
}

/** The limits `checkPath` applies. */
export type PathLimits = Pick<Limits, 'pathMaxBytes' | 'nameMaxBytes'>;

/**
 * Throws a `VfsError` when `path` (as the client sent it, or as resolved) may not be used:
 * - EINVAL when it contains a NUL byte or a newline (`\n`, `\r`);
 * - ENAMETOOLONG when it has `pathMaxBytes` (4096) UTF-8 bytes or more (Linux counts the terminating NUL in
 *   PATH_MAX), or one component has more than `nameMaxBytes` (255) UTF-8 bytes.
 * The error's `path` is the offending path cut to `pathMaxBytes` characters, so an error never echoes an
 * unbounded input. `syscall` names the operation in the message (`open`, `watch`, …). O(length of `path`).
 * @deviation Linux allows a newline in a file name; spritzer refuses it (an fs watch event or an NDJSON log line
 *   naming such a file could not be told apart from two). See docs/fidelity.md.
 * @see https://man7.org/linux/man-pages/man7/path_resolution.7.html (ENAMETOOLONG), docs/limits.md
 */
export function checkPath(path: string, syscall = 'open', limits: PathLimits = DEFAULT_LIMITS): void {
  const shown = () => (path.length > limits.pathMaxBytes ? path.slice(0, limits.pathMaxBytes) : path);
  if (/[\0\n\r]/.test(path)) throw new VfsError('EINVAL', shown(), syscall);
  // Cheap bound first: a UTF-8 byte is at most 3 per UTF-16 unit, at least 1.
  if (path.length >= limits.pathMaxBytes || Buffer.byteLength(path, 'utf8') >= limits.pathMaxBytes) {
    throw new VfsError('ENAMETOOLONG', shown(), syscall);
  }
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && path.charCodeAt(i) !== 0x2f /* / */) continue;
    const length = i - start;
    if (length > limits.nameMaxBytes / 3 && Buffer.byteLength(path.slice(start, i), 'utf8') > limits.nameMaxBytes) {
      throw new VfsError('ENAMETOOLONG', shown(), syscall);
    }
    start = i + 1;
  }
}

/**
 * Resolves a client's `path` against its `workingDir` (default `/`) to the normalised absolute path the machine
 * gets, checking the raw `path`, the `workingDir` and the result with `checkPath` (a relative path may be short
 * while the joined one is too long). Throws what `checkPath` throws.
 * @see docs/wire-reference.md §8 (relative paths resolve against `workingDir`), §6.3 (the watch's `workingDir`)
 */
export function resolveClientPath(path: string, workingDir: string | undefined, syscall = 'open', limits: PathLimits = DEFAULT_LIMITS): string {
  checkPath(path, syscall, limits);
  if (workingDir !== undefined) checkPath(workingDir, syscall, limits);
  const resolved = normalizePath(path, normalizePath(workingDir ?? '/'));
  checkPath(resolved, syscall, limits);
  return resolved;
}

// ---- Machines ----

/** A part of a file: `length` bytes from byte `offset` (both non-negative integers). */
export interface FileRange {
  offset: number;
  length: number;
}

/**
 * The filesystem of a machine, as the fs API (docs/wire-reference.md §8) needs it. Every path is absolute and already
 * normalised by the caller (`normalizePath`); symlinks resolve in the sprite's own view, so no path can leave
 * the sprite. Failures reject with a `VfsError` (`code`: ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY, EINVAL,
 * ELOOP, EACCES, ENAMETOOLONG, ENOSPC) carrying the path, which the HTTP layer maps to `{error, code, path}`.
 * Every mutation is atomic from the caller's view: a failed call changes nothing it reports.
 */
export interface MachineFs {
  /**
   * The bytes of the file at `path` (follows symlinks). EISDIR for a directory. With `range`, only the bytes from
   * `offset` (bytes from the start) for at most `length` bytes, fewer at the end of the file: so a caller that needs
   * part of a large file (the tail of a service log) holds only that part.
   */
  readFile(path: string, range?: FileRange): Promise<Uint8Array>;
  /**
   * Writes `data` to `path`, creating or replacing the file (or appending). `mode` applies to a new file and
   * to an existing one (permission bits, ≤ 0o7777). `mkdirParents` creates missing ancestors (mode 0755).
   * Resolves with the `stat` of the file after the write. `noFollow` is for writes spritzer makes on the sprite's
   * behalf (service logs, the policy copy, `/etc/hostname`): no symlink is followed, one in an ancestor is ELOOP, one
   * (or a hard link) at `path` is replaced by the file. The real engines refuse (EACCES) writes into `/proc` or `/sys`.
   * @see docs/security.md "Host-side writes"
   */
  writeFile(
    path: string,
    data: Uint8Array,
    opts?: { mode?: number; mkdirParents?: boolean; append?: boolean; noFollow?: boolean },
  ): Promise<VfsStat>;
  /** `stat` (follows symlinks). */
  stat(path: string): Promise<VfsStat>;
  /** `lstat` (does not follow the last component). */
  lstat(path: string): Promise<VfsStat>;
  /**
   * The entries of directory `path`, in name order, each with its `lstat`. With `recursive`, every descendant,
   * depth-first (a directory before its children). ENOTDIR when `path` is not a directory.
   */
  readdir(path: string, opts?: { recursive?: boolean }): Promise<VfsEntry[]>;
  /** Creates a directory (mode default 0755); `recursive` = `mkdir -p`. */
  mkdir(path: string, opts?: { recursive?: boolean; mode?: number }): Promise<void>;
  /** Removes `path`; a non-empty directory needs `recursive` (else ENOTEMPTY). Resolves with the removed paths: `path` first, then its descendants depth-first in name order. */
  rm(path: string, opts?: { recursive?: boolean; force?: boolean }): Promise<string[]>;
  /** Renames `source` to `dest`, replacing an existing file at `dest`. */
  rename(source: string, dest: string): Promise<void>;
  /** Copies `source` to `dest` (a directory needs `recursive`); resolves with each copied pair and its size in bytes (0 for non-files). */
  copy(source: string, dest: string, opts?: { recursive?: boolean }): Promise<Array<{ source: string; dest: string; size: number }>>;
  /** Sets permission bits; resolves with every affected path and its new mode. */
  chmod(path: string, mode: number, opts?: { recursive?: boolean }): Promise<Array<{ path: string; mode: number }>>;
  /** Sets owner ids; `-1` keeps the current one. Resolves with every affected path and its ids. */
  chown(path: string, uid: number, gid: number, opts?: { recursive?: boolean }): Promise<Array<{ path: string; uid: number; gid: number }>>;
}

/** A listening TCP socket inside a machine (the ports watch, docs/wire-reference.md §6.2). */
export interface ListeningPort {
  port: number;
  /** Bound address as seen inside, e.g. `127.0.0.1`, `0.0.0.0`, `::`. */
  address: string;
  /** Pid (inside the machine) of the listening process, when known. */
  pid?: number;
}

/** An opaque snapshot of a machine's disk, taken by `snapshot()` and consumed by `restore()` / `releaseSnapshot()`. */
export interface MachineSnapshot {
  /** The machine kind that made it; a snapshot never crosses kinds. */
  readonly kind: string;
}

/** How a machine's snapshots are made (logged at start; listed in docs/fidelity.md). */
/** How a sprite's checkpoints are taken: `none` where the engine has none (the container engine on Kubernetes). */
export type SnapshotMode = 'structural' | 'btrfs' | 'copy' | 'none';

/**
 * A sprite's machine. Lifecycle: created by a `MachineFactory` (ready to use), `stop()`ped processes on
 * restore/restart, `destroy()`ed with the sprite. Any method may be called concurrently.
 */
export interface Machine {
  /** `memory`, `sandbox`, `container`. */
  readonly kind: string;
  /** The exec engine name shown by health (`shell`, `interpreter`, `sandbox`, …). */
  readonly engine: string;
  /** The filesystem (the fs API, service logs, the in-sprite policy file). */
  readonly fs: MachineFs;
  /**
   * Why the machine could not boot (the boot's error), while it cannot; undefined when it runs. Only the engines
   * that keep disks across restarts ever set it (a saved sprite whose disk no longer boots stays, to be restored to a
   * checkpoint or deleted). @see docs/security.md "No data loss on a bad boot"
   */
  readonly bootFailure: string | undefined;
  /**
   * Starts a process. `io` is wired before anything runs, so a fast command never loses output; the process'
   * `pid` is known synchronously (it names the exec session). Output is delivered as produced, byte-exact.
   * A working directory that does not exist makes the process fail (exit 1 with a message on stderr); callers
   * check it first with `fs.stat` to refuse before a WebSocket upgrade.
   */
  spawn(req: ExecRequest, io: ExecIO, opts: ExecStartOptions): ExecProcess;
  /**
   * Opens a TCP connection to `host:port` as seen from inside the machine (proxy, sprite URL). Rejects with an
   * Error whose `code` is `ECONNREFUSED` when nothing listens, or `ENOTSUP` on machines that have no network
   * (the in-memory one).
   */
  connect(host: string, port: number): Promise<Duplex>;
  /** The TCP ports listening inside right now (empty on the in-memory machine). */
  listeningPorts(): Promise<ListeningPort[]>;
  /**
   * Reports changes at or below `path` (recursive, or `path` and its direct children) until the returned
   * function is called. Changes are batched per tick; `listener` must not throw.
   */
  watch(path: string, opts: { recursive: boolean }, listener: (changes: VfsChange[]) => void): () => void;
  /** Takes a live snapshot of the disk without stopping anything. O(1) in the size of the disk where the storage allows it. */
  snapshot(): Promise<MachineSnapshot>;
  /**
   * Stops every process, then makes `snapshot` the live disk (the snapshot itself stays usable for later
   * restores). The caller restarts services afterwards.
   */
  restore(snapshot: MachineSnapshot): Promise<void>;
  /** Frees a snapshot (the checkpoint was deleted). Idempotent. */
  releaseSnapshot(snapshot: MachineSnapshot): Promise<void>;
  /** Bytes and regular files on the disk (the admin state view, the disk quota). */
  usage(): Promise<{ bytes: number; files: number }>;
  /** Kills every process (KILL to each group) and resolves when all have exited; the disk stays. */
  stop(): Promise<void>;
  /** Stops everything and removes the machine's disk and snapshots. The machine is unusable afterwards. */
  destroy(): Promise<void>;
  /**
   * Stops everything and keeps the disk and snapshots for a later run (server shutdown; `MachinePersistence` boots it
   * again). The machine is unusable afterwards. On engines whose disks do not outlive the process (the in-memory
   * ones: the data dir keeps their trees) it is `destroy()`.
   */
  halt(): Promise<void>;
  /**
   * Calls `listener` after the machine rebooted on its own (a real machine whose agent crashed: every process is
   * gone, the disk stays), so services come back. Machines that never reboot by themselves never call it.
   * Returns the unsubscribe function.
   */
  onReboot(listener: () => void): () => void;
  /**
   * Calls `listener` whenever `bootFailure` is set or cleared (a boot failed, the agent broke the protocol, a restore
   * booted it again), so whoever counts statuses knows to count again. Machines that never fail never call it.
   * Returns the unsubscribe function.
   */
  onBootFailureChange(listener: () => void): () => void;
  /**
   * Calls `listener` with each connection a process inside the machine opens to the in-sprite API socket
   * (`/.sprite/api.sock`, docs/wire-reference.md §12): a Duplex carrying HTTP that spritzer answers. The last
   * listener registered gets the connection. Returns the unsubscribe.
   */
  onApiConnection(listener: (conn: Duplex) => void): () => void;
  /**
   * Keeps `record` (the sprite's fields above the machine, JSON) with the machine, so a restarted spritzer that
   * adopts it (`MachineFactory.adoptExisting`) gets them back. Only machines that outlive spritzer (container) keep
   * anything; the others resolve at once.
   */
  remember(record: MachineRecord): Promise<void>;
  /**
   * The sprite's network policy is now `policy` (set, or restored at start): machines that enforce it (the sandbox
   * with `--sandbox-egress gate`) apply it at once and cut open connections it blocks; the others have nothing to do.
   * @see docs/wire-reference.md §10
   */
  setNetworkPolicy(policy: NetworkPolicy): void;
}

/** The sprite fields a machine that outlives spritzer keeps for its adoption (src/server/model/adopt.ts). */
export interface MachineRecord {
  /** Creation time, epoch ms. */
  createdAt: number;
  labels?: string[];
  urlSettings?: { auth: 'sprite' | 'public'; privateAccess?: string };
  config?: Record<string, unknown>;
  environment?: Record<string, string>;
}

/** A machine an earlier spritzer left running, found again at start (src/server/model/adopt.ts). */
export interface AdoptedMachine {
  spec: MachineSpec;
  /** What `remember` (or the create's `MachineSpec.record`) kept; absent fields take the create defaults. */
  record: MachineRecord;
  machine: Machine;
}

/** What a factory needs to create one machine. */
export interface MachineSpec {
  /** The sprite's name (hostname inside). */
  name: string;
  /** The sprite's id (unique; names directories on disk). */
  id: string;
  /**
   * Most bytes of file content the machine's disk may hold (`--disk-quota`, docs/limits.md); a write beyond it
   * fails with ENOSPC (a `VfsError` through `fs`, the engine's own error inside processes). Absent: no quota.
   */
  diskQuotaBytes?: number;
  /** The sprite's fields, kept by machines that outlive spritzer (see `Machine.remember`). */
  record?: MachineRecord;
  /** Most regular files the machine's disk may hold (`--max-files`, docs/limits.md); beyond it ENOSPC. Absent: none. */
  maxFiles?: number;
}

/** Creates the machines of one engine. One factory per server. */
export interface MachineFactory {
  /** The `--exec` value (`shell`, `interpreter`, `sandbox`, `container`). */
  readonly engine: string;
  /** How snapshots are made on this engine. */
  readonly snapshotMode: SnapshotMode;
  /** Creates and boots a machine for a new sprite. */
  create(spec: MachineSpec): Promise<Machine>;
  /** Frees what the factory itself holds (loop mounts, temp dirs) after every machine was destroyed. */
  close(): Promise<void>;
  /**
   * Loads, in the background once the server listens, what the first `create` would otherwise load (the in-memory
   * engines: the exec engine's modules); resolves at once on engines with nothing to load. Rejects as `create` would.
   */
  warm(): Promise<void>;
  /**
   * How this engine's sprites survive a restart (`--data-dir`, src/server/store): the store saves and loads every
   * machine through it and knows no engine. Undefined where the engine cannot (the container engine, whose
   * containers outlive spritzer and are adopted instead; the sandbox without `--data-dir`).
   */
  readonly persistence: MachinePersistence | undefined;
  /**
   * The machines an earlier spritzer left (container engine: its labelled containers), each booted and ready;
   * called once at start (src/server/model/adopt.ts). Empty on engines whose machines die with spritzer.
   */
  adoptExisting(): Promise<AdoptedMachine[]>;
  /**
   * spritzer is stopping and its machines outlive it: from now on `destroy()` lets go of a machine (its
   * processes end, its disk stays) instead of removing it, so the next start adopts it. Deleting a sprite
   * before this call still removes its machine. Nothing to do on engines whose machines die with spritzer.
   */
  detach(): void;
}

/** One path of a saved disk tree, as the data dir keeps it: the node's stat, its content's hash, a symlink's target. */
export interface SavedEntry {
  path: string;
  type: VfsNodeType;
  mode: number;
  uid: number;
  gid: number;
  /** Epoch ms. */
  mtime: number;
  /** Content hash (`DiskRows.putBlob`) of a file; null otherwise. */
  blob: string | null;
  /** A symlink's target; null otherwise. */
  target: string | null;
  /**
   * The inode number: the names of one file (hard links) share it. Null or absent in rows saved before inode
   * numbers were kept.
   */
  ino?: number | null;
}

/**
 * What the data dir offers an engine for disks that live in spritzer's memory: trees of entries by sprite id and tree
 * name (a sprite's live disk, each checkpoint's), and file contents by hash. The store keeps the rows; what they mean
 * is the engine's. Every method is synchronous (a write is durable when it returns) and throws when the data dir fails.
 */
export interface DiskRows {
  /** The entries of `tree`, parents before children (ordered by path). */
  rows(sprite: string, tree: string): SavedEntry[];
  /** Adds or replaces the entry at `entry.path`. */
  upsert(sprite: string, tree: string, entry: SavedEntry): void;
  /** Removes the entry at `path` (nothing when absent). */
  remove(sprite: string, tree: string, path: string): void;
  /** Removes every entry of `tree`. */
  clearTree(sprite: string, tree: string): void;
  /** Makes `to` a copy of `from` (its previous entries kept where `from` has none: clear it first). */
  copyTree(sprite: string, from: string, to: string): void;
  /** Stores `data` once by content; returns its hash. */
  putBlob(data: Uint8Array): string;
  /** The content stored under `hash`; throws when it is missing (a damaged data dir). */
  getBlob(hash: string): Uint8Array;
  /** Runs `fn` in one transaction (nested calls join the outer one). */
  transaction(fn: () => void): void;
}

/** Where one sprite's disk is saved: its id (which names its trees) and the data dir's rows. */
export interface SavedDisk {
  spriteId: string;
  rows: DiskRows;
}

/**
 * A saved disk exists but cannot be read back (a missing blob, a damaged row): the store refuses to start rather
 * than drop the sprite, so the operator can repair the data dir. Any other failure of `reattach` drops the sprite.
 */
export class UnreadableDiskError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableDiskError';
  }
}

/**
 * Saving and booting again the machines of one engine (`--data-dir`). What `save` and `saveSnapshot` return is JSON,
 * kept by the store with the sprite (host-disk engines name their disk there; the in-memory engines write the tree
 * into `at.rows` and keep nothing else); the other methods take it back. @see docs/fidelity.md "Persistence"
 */
export interface MachinePersistence {
  /**
   * Saves `machine`'s disk from now on (called at every save of its sprite; cheap once saving has begun) and returns
   * what names it (JSON).
   */
  save(machine: Machine, at: SavedDisk): unknown;
  /** Saves the disk of checkpoint `at.checkpointId` (once per checkpoint) and returns what names it (JSON). */
  saveSnapshot(snapshot: MachineSnapshot, at: SavedDisk & { checkpointId: string }): unknown;
  /**
   * Boots the sprite `spec` again on the disk `saved` names, and saves it from then on. Rejects when that disk is
   * gone (the store drops the sprite), with `UnreadableDiskError` when it is there but damaged.
   */
  reattach(spec: MachineSpec, saved: unknown, at: SavedDisk): Promise<Machine>;
  /** The snapshot `saved` names (read when it is restored, not now). */
  reviveSnapshot(saved: unknown, at: SavedDisk & { checkpointId: string }): MachineSnapshot;
  /** Stops saving the disk of sprite `spriteId` (deleted, or the store closes). Idempotent. */
  release(spriteId: string): void;
  /** Deletes every disk and snapshot on the host that no saved sprite names (`keep`: what `save` returned for each). */
  prune(keep: unknown[]): Promise<void>;
}
