/**
 * The in-memory persistent filesystem of one sprite: a real tree of directories, files and symlinks with modes,
 * mtimes, sizes, owners, inode numbers and hard links, and POSIX-style errors. Directory children are `immutable`
 * Maps and nodes are never mutated, so a write copies only the path from the root to the changed node and a snapshot
 * is just the volume reference (O(1) to take and to restore). A file with more than one name keeps its content and
 * attributes once, in the volume's inode table; its names hold only its inode number. It knows nothing of HTTP,
 * exec engines or checkpoint ids.
 */
import { Map as ImmMap } from 'immutable';
import { normalizePath, VfsError, type VfsChange, type VfsEntry, type VfsErrorCode, type VfsNodeType, type VfsStat } from '../port.ts';
// The sprite user owns everything created after the skeleton.
import { SPRITE_GID, SPRITE_UID } from '../../../protocol/sprite-tree.ts';

declare const snapshotBrand: unique symbol;
/** An opaque immutable snapshot of a whole tree; O(1) to take and to restore, never changed by later writes. */
export type VfsSnapshot = { readonly [snapshotBrand]: true };

/** A stat with the inode facts: `ino` (stable per file, shared by its hard links) and `nlink` (its names). */
/**
 * A node's stat with its inode number and link count, and `mtimeNs`: the nanoseconds past `mtimeMs` (0–999999) of a
 * time set with that precision (`touch -d @1.123456789`, `cp -p` of such a file); absent for a time the clock
 * stamped, which keeps milliseconds only. `atimeMs`/`atimeNs`: the access time, in the same units.
 */
export type VfsInodeStat = VfsStat & { ino: number; nlink: number; mtimeNs?: number; atimeMs: number; atimeNs?: number };

/** Linux's limit on symlinks followed in one lookup (MAXSYMLINKS). */
export const MAX_SYMLINK_HOPS = 40;
/** The root directory's inode number, as on ext4. */
export const ROOT_INO = 2;
/** The first inode number handed out after the root (ext4 keeps 1–11 for itself and lost+found). */
const FIRST_INO = 12;
const DIR_SIZE = 4096;
const PERMISSION_BITS = 0o7777;
const DEFAULT_FILE_MODE = 0o644;
const DEFAULT_DIR_MODE = 0o755;
const SYMLINK_MODE = 0o777;

interface NodeMeta {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly mtimeMs: number;
  /** Nanoseconds past `mtimeMs` (0–999999) of a time set that precisely; absent for the clock's own stamps. */
  readonly mtimeNs?: number;
  /**
   * The access time (epoch ms, and nanoseconds past it as `mtimeNs`): absent while it is the modification time (a
   * node made at once, or rebuilt from saved rows, which keep one time). A change of the mtime pins it (`pinAtime`).
   */
  readonly atimeMs?: number;
  readonly atimeNs?: number;
}
interface FileNode extends NodeMeta {
  readonly kind: 'file';
  readonly ino: number;
  readonly data: Uint8Array;
}
interface SymlinkNode extends NodeMeta {
  readonly kind: 'symlink';
  readonly ino: number;
  readonly target: string;
}
interface DirNode extends NodeMeta {
  readonly kind: 'directory';
  readonly ino: number;
  readonly children: ImmMap<string, VfsNode>;
  /** Sum of file sizes in this subtree, kept up to date on every path copy (files with several names: none). */
  readonly bytes: number;
  /** Number of regular files in this subtree (files with several names are counted in the inode table). */
  readonly files: number;
  /** Number of hard-link names (`LinkNode`s) in this subtree: a walk for them skips subtrees that hold none. */
  readonly links: number;
  /** Number of direct subdirectories (a directory's link count is 2 + this, as on ext4). */
  readonly subdirs: number;
}
/** One name of a file (or symlink) that has, or had, more than one: the inode itself is in the volume's table. */
interface LinkNode {
  readonly kind: 'link';
  readonly ino: number;
}
/** What a name leads to. */
type Inode = FileNode | SymlinkNode | DirNode;
/** What a directory holds under a name. */
type VfsNode = Inode | LinkNode;
/** A shared inode: the file (or symlink) and how many names it has. */
interface Shared {
  readonly node: FileNode | SymlinkNode;
  readonly nlink: number;
}
/** The inodes that have hard links, with the bytes and regular files they add to the tree's own aggregates. */
interface Table {
  readonly inodes: ImmMap<number, Shared>;
  readonly bytes: number;
  readonly files: number;
}
/** A whole filesystem at one moment (what a snapshot is): the tree, the shared inodes, the next free inode number. */
interface Volume {
  readonly tree: DirNode;
  readonly table: Table;
  readonly nextIno: number;
}

/** A lookup result: the canonical (symlink-free) path as components, the inode there and the name's own node. */
interface Resolved {
  parts: string[];
  node: Inode | undefined;
  /** What the parent directory holds under the name: `node` itself, or the `LinkNode` that names it. */
  raw: VfsNode | undefined;
}

const encoder = new TextEncoder();
const EMPTY_TABLE: Table = Object.freeze({ inodes: ImmMap<number, Shared>(), bytes: 0, files: 0 });

function bytesOf(node: VfsNode | undefined): number {
  if (!node) return 0;
  return node.kind === 'file' ? node.data.byteLength : node.kind === 'directory' ? node.bytes : 0;
}
function filesOf(node: VfsNode | undefined): number {
  if (!node) return 0;
  return node.kind === 'file' ? 1 : node.kind === 'directory' ? node.files : 0;
}
function linksOf(node: VfsNode | undefined): number {
  if (!node) return 0;
  return node.kind === 'link' ? 1 : node.kind === 'directory' ? node.links : 0;
}
function dirsOf(node: VfsNode | undefined): number {
  return node?.kind === 'directory' ? 1 : 0;
}
function linkNode(ino: number): LinkNode {
  return Object.freeze({ kind: 'link', ino });
}

function makeDir(meta: NodeMeta & { ino: number }, children: ImmMap<string, VfsNode> = ImmMap()): DirNode {
  let bytes = 0;
  let files = 0;
  let links = 0;
  let subdirs = 0;
  for (const child of children.values()) {
    bytes += bytesOf(child);
    files += filesOf(child);
    links += linksOf(child);
    subdirs += dirsOf(child);
  }
  return Object.freeze({ kind: 'directory', ino: meta.ino, mode: meta.mode, uid: meta.uid, gid: meta.gid, mtimeMs: meta.mtimeMs, ...(meta.mtimeNs === undefined ? {} : { mtimeNs: meta.mtimeNs }), atimeMs: meta.atimeMs, atimeNs: meta.atimeNs, children, bytes, files, links, subdirs });
}

/** Replaces one child of `dir` (or removes it when `child` is undefined), adjusting aggregates in O(1). */
function withChild(dir: DirNode, name: string, child: VfsNode | undefined, mtimeMs: number): DirNode {
  const old = dir.children.get(name);
  const children = child ? dir.children.set(name, child) : dir.children.remove(name);
  return Object.freeze({
    ...dir,
    ...pinAtime(dir),
    children,
    mtimeMs,
    // A new stamp is the clock's (milliseconds only); an unchanged one keeps its nanoseconds.
    mtimeNs: mtimeMs === dir.mtimeMs ? dir.mtimeNs : undefined,
    bytes: dir.bytes - bytesOf(old) + bytesOf(child),
    files: dir.files - filesOf(old) + filesOf(child),
    links: dir.links - linksOf(old) + linksOf(child),
    subdirs: dir.subdirs - dirsOf(old) + dirsOf(child),
  });
}

/**
 * `node`'s access time as fields that stay when its mtime changes: a node whose atime is still its mtime gets it
 * written out, so that a write (which moves only the mtime) leaves the time it was last read.
 */
function pinAtime(node: NodeMeta): Pick<NodeMeta, 'atimeMs' | 'atimeNs'> {
  return node.atimeMs === undefined ? { atimeMs: node.mtimeMs, atimeNs: node.mtimeNs } : { atimeMs: node.atimeMs, atimeNs: node.atimeNs };
}

/** Nanoseconds of a time stored as epoch ms plus nanoseconds past them, for comparing two such times. */
function nanosOf(ms: number, ns: number | undefined): bigint {
  return BigInt(Math.trunc(ms)) * 1_000_000n + BigInt(ns ?? 0);
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Whether reading `node` at `now` (epoch ms) moves its access time, as Linux's default `relatime` mount decides
 * (fs/inode.c relatime_need_update): when the atime is not after the mtime, or is a day old or more.
 * @deviation The change time is not kept, so an atime between the mtime and a later change time stays.
 */
function readMovesAtime(node: NodeMeta, now: number): boolean {
  if (node.atimeMs === undefined) return true;
  if (nanosOf(node.atimeMs, node.atimeNs) <= nanosOf(node.mtimeMs, node.mtimeNs)) return true;
  return now - node.atimeMs >= DAY_MS;
}

/** The inode a name leads to (a `LinkNode` is looked up in `table`). */
function deref(table: Table, node: VfsNode): Inode {
  return node.kind === 'link' ? table.inodes.get(node.ino)!.node : node;
}

/** How many names the inode behind `raw` has: a shared inode's count, 2 + subdirectories for a directory, else 1. */
function nlinkOf(table: Table, raw: VfsNode): number {
  if (raw.kind === 'link') return table.inodes.get(raw.ino)!.nlink;
  return raw.kind === 'directory' ? 2 + raw.subdirs : 1;
}

/** `table` with the inode `ino` set to `shared` (or dropped when undefined), its aggregates adjusted in O(1). */
function tableSet(table: Table, ino: number, shared: Shared | undefined): Table {
  const old = table.inodes.get(ino);
  return Object.freeze({
    inodes: shared ? table.inodes.set(ino, Object.freeze(shared)) : table.inodes.remove(ino),
    bytes: table.bytes - bytesOf(old?.node) + bytesOf(shared?.node),
    files: table.files - filesOf(old?.node) + filesOf(shared?.node),
  });
}

/** `table` less one name of `ino`: the inode goes when its last name does. */
function dropName(table: Table, ino: number): Table {
  const shared = table.inodes.get(ino)!;
  return tableSet(table, ino, shared.nlink > 1 ? { node: shared.node, nlink: shared.nlink - 1 } : undefined);
}

/** `table` less one name for each `LinkNode` in the subtree `node` (only subtrees that hold links are walked). */
function dropNamesIn(table: Table, node: VfsNode, meter?: VfsMeter): Table {
  const stack: VfsNode[] = [node];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (meter) meter.steps += 1;
    if (top.kind === 'link') table = dropName(table, top.ino);
    else if (top.kind === 'directory' && top.links > 0) for (const child of top.children.values()) if (linksOf(child) > 0) stack.push(child);
  }
  return table;
}

/**
 * Returns a new root with `node` placed at the canonical path `parts` (or the entry removed when `node` is
 * undefined), copying only the directories on the way. `touch` sets the parent directory's mtime (an entry was
 * added or removed). Throws a plain Error if `parts` is not canonical: callers resolve first.
 */
function putNode(
  root: DirNode,
  parts: readonly string[],
  node: VfsNode | undefined,
  now: number,
  touch: boolean,
  meter?: VfsMeter,
): DirNode {
  if (parts.length === 0) {
    if (node?.kind !== 'directory') throw new Error('vfs: the root can only be replaced by a directory');
    return node;
  }
  // Iterative (no recursion over depth): collect the directories on the way down, then rebuild bottom-up.
  const dirs: DirNode[] = [root];
  for (let i = 0; i < parts.length - 1; i++) {
    const sub = dirs[i]!.children.get(parts[i]!);
    if (sub?.kind !== 'directory') throw new Error(`vfs: non-canonical path /${parts.join('/')}`);
    dirs.push(sub);
  }
  const last = dirs.length - 1;
  let built = withChild(dirs[last]!, parts[last]!, node, touch ? now : dirs[last]!.mtimeMs);
  for (let i = last - 1; i >= 0; i--) built = withChild(dirs[i]!, parts[i]!, built, dirs[i]!.mtimeMs);
  if (meter) meter.steps += 2 * parts.length;
  return built;
}

/**
 * Counts the work the VFS does, for tests that prove an operation linear by structure (a 10× deeper path must
 * not cost 100× the steps). `steps` grows by one per directory level visited or rebuilt.
 */
export interface VfsMeter {
  steps: number;
}

function nodeStat(node: Inode, nlink: number): VfsInodeStat {
  const atime = pinAtime(node);
  const base = {
    mode: node.mode,
    mtimeMs: node.mtimeMs,
    ...(node.mtimeNs === undefined ? {} : { mtimeNs: node.mtimeNs }),
    atimeMs: atime.atimeMs!,
    ...(atime.atimeNs === undefined ? {} : { atimeNs: atime.atimeNs }),
    uid: node.uid,
    gid: node.gid,
    ino: node.ino,
    nlink,
  };
  switch (node.kind) {
    case 'file':
      return { type: 'file', size: node.data.byteLength, ...base };
    case 'directory':
      return { type: 'directory', size: DIR_SIZE, ...base };
    case 'symlink':
      return { type: 'symlink', size: encoder.encode(node.target).byteLength, target: node.target, ...base };
  }
}

function joinPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}
function toPath(parts: readonly string[]): string {
  return `/${parts.join('/')}`;
}
function isInside(inner: readonly string[], outer: readonly string[]): boolean {
  return inner.length >= outer.length && outer.every((p, i) => inner[i] === p);
}
function sortedNames(dir: DirNode): string[] {
  return [...dir.children.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
function toBytes(data: Uint8Array | string): Uint8Array {
  // Always a fresh array: the caller may mutate its own buffer later, and snapshots must never change.
  return typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data);
}
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}

function changeOf(path: string, event: VfsChange['event'], node: Inode): VfsChange {
  return { path, event, isDir: node.kind === 'directory', size: event === 'remove' || node.kind !== 'file' ? 0 : node.data.byteLength };
}

/**
 * `path` as the kernel reads it: absolute (a relative path joins `/`), with its `.`, `..`, repeated slashes and
 * trailing slash kept for the lookup to interpret component by component.
 */
function absolute(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

/**
 * Whether `path` ends in a slash after a name (`f/`, `l//`): the lookup must then reach a directory, following a
 * final symlink, and fails with ENOTDIR on anything else (path_resolution(7), "Trailing slashes").
 */
function endsInSlash(path: string): boolean {
  return /[^/]\/+$/.test(path);
}

/** `path` without its trailing slashes (`/` stays `/`). */
function withoutSlash(path: string): string {
  return path.replace(/\/+$/, '') || '/';
}

function join(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** The shared inodes whose file changed between two tables (present in both, another node): O(shared inodes). */
function changedInodes(a: Table, b: Table): Set<number> {
  const out = new Set<number>();
  if (a.inodes === b.inodes) return out;
  for (const [ino, shared] of b.inodes) {
    const before = a.inodes.get(ino);
    if (before && before.node !== shared.node) out.add(ino);
  }
  return out;
}

/** The event (if any) for one inode that stayed of the same kind: content or mtime (or identity) → write; mode/owner → chmod. */
function inodeChange(x: Inode, y: Inode): 'write' | 'chmod' | null {
  if (x === y) return null;
  if (x.kind === 'file' && y.kind === 'file' && (x.data !== y.data || x.mtimeMs !== y.mtimeMs || x.mtimeNs !== y.mtimeNs || x.ino !== y.ino)) return 'write';
  if (x.kind === 'symlink' && y.kind === 'symlink' && x.target !== y.target) return 'write';
  if (x.mode !== y.mode || x.uid !== y.uid || x.gid !== y.gid) return 'chmod';
  return null;
}

/** One pending step of `diffNodes`: compare two nodes, or report a whole subtree as created/removed. */
type DiffTask =
  | { kind: 'diff'; a: VfsNode | undefined; b: VfsNode | undefined; path: string; depth: number }
  | { kind: 'emit'; node: VfsNode; table: Table; path: string; event: 'create' | 'remove'; depth: number };

/**
 * Appends to `out` the changes from `a` (in volume `av`) to `b` (in `bv`) at `path`, `depth` levels down, in
 * depth-first pre-order (a node before its children; within a directory, `b`'s children in map order, then the
 * removed ones). Iterative with an explicit stack, so any tree depth is fine. A file with several names that changed
 * through one of them is reported at each name: unchanged subtrees are then still walked where they hold links.
 */
function diffNodes(av: Volume, bv: Volume, a: VfsNode | undefined, b: VfsNode | undefined, path: string, depth: number, out: VfsChange[], meter?: VfsMeter): void {
  const changed = changedInodes(av.table, bv.table);
  const stack: DiffTask[] = [{ kind: 'diff', a, b, path, depth }];
  const pushAll = (tasks: DiffTask[]) => {
    for (let i = tasks.length - 1; i >= 0; i--) stack.push(tasks[i]!);
  };
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (meter) meter.steps += 1;
    if (t.kind === 'emit') {
      out.push(changeOf(t.path, t.event, deref(t.table, t.node)));
      if (t.node.kind !== 'directory' || t.depth <= 0) continue;
      const next: DiffTask[] = [];
      for (const [name, child] of t.node.children) next.push({ kind: 'emit', node: child, table: t.table, path: join(t.path, name), event: t.event, depth: t.depth - 1 });
      pushAll(next);
      continue;
    }
    const { a: x, b: y } = t;
    if (x === y) {
      // The same name, but the shared inode it leads to may have changed through another name.
      if (!x || changed.size === 0) continue;
      if (x.kind === 'link' && changed.has(x.ino)) {
        const event = inodeChange(deref(av.table, x), deref(bv.table, x));
        if (event) out.push(changeOf(t.path, event, deref(bv.table, x)));
      } else if (x.kind === 'directory' && x.links > 0 && t.depth > 0) {
        const next: DiffTask[] = [];
        for (const [name, child] of x.children) if (linksOf(child) > 0) next.push({ kind: 'diff', a: child, b: child, path: join(t.path, name), depth: t.depth - 1 });
        pushAll(next);
      }
      continue;
    }
    if (!x) {
      stack.push({ kind: 'emit', node: y!, table: bv.table, path: t.path, event: 'create', depth: t.depth });
      continue;
    }
    if (!y) {
      stack.push({ kind: 'emit', node: x, table: av.table, path: t.path, event: 'remove', depth: t.depth });
      continue;
    }
    const dx = deref(av.table, x);
    const dy = deref(bv.table, y);
    if (dx.kind !== dy.kind) {
      pushAll([
        { kind: 'emit', node: x, table: av.table, path: t.path, event: 'remove', depth: t.depth },
        { kind: 'emit', node: y, table: bv.table, path: t.path, event: 'create', depth: t.depth },
      ]);
      continue;
    }
    const event = inodeChange(dx, dy);
    if (event) out.push(changeOf(t.path, event, dy));
    if (dx.kind !== 'directory' || dy.kind !== 'directory' || t.depth <= 0) continue;
    if (dx.children === dy.children && (changed.size === 0 || dx.links === 0)) continue;
    const next: DiffTask[] = [];
    for (const [name, child] of dy.children) next.push({ kind: 'diff', a: dx.children.get(name), b: child, path: join(t.path, name), depth: t.depth - 1 });
    for (const [name, child] of dx.children) {
      if (!dy.children.has(name)) next.push({ kind: 'emit', node: child, table: av.table, path: join(t.path, name), event: 'remove', depth: t.depth - 1 });
    }
    pushAll(next);
  }
}

/**
 * A sprite's filesystem. Every method takes absolute or relative paths (relative ones resolve against `/`), looked
 * up component by component as the kernel does (path_resolution(7)): a symlink met on the way is followed before the
 * next component, `..` climbs from the directory reached (through a link, not by the path's text), and a trailing
 * slash asks for a directory (a final symlink is then followed; anything else is ENOTDIR). Errors name the path in
 * `Vfs.normalize`'s form. Every mutation is atomic: it builds a new volume and swaps it in only when it succeeds,
 * so a failed call changes nothing. New nodes are owned by the sprite user (uid/gid 1001), stamped with the injected `now` and numbered with
 * the next free inode number (never reused within a sprite's history: a restore does not hand out old numbers again).
 * @see docs/wire-reference.md §8 (filesystem API), §7 (checkpoints), docs/architecture.md "Machines and engines"
 */
export class Vfs {
  private vol!: Volume;
  private nextIno: number;
  private readonly now: () => number;
  private readonly changeListeners = new Set<() => void>();
  private readonly meter: VfsMeter | undefined;
  /**
   * Most bytes of regular-file content the tree may hold (the sprite's disk quota); a write or copy that would
   * grow the total beyond it fails with ENOSPC and changes nothing. Shrinking writes always work. A file's bytes
   * count once, however many names it has. Default: none.
   * @see docs/limits.md (`--disk-quota`)
   */
  quotaBytes: number;
  /**
   * Most regular files the tree may hold (the sprite's inode budget, so that a client cannot fill the server's
   * memory with empty files); a write or copy that would add files beyond it fails with ENOSPC, as Linux does when a
   * filesystem runs out of inodes, and changes nothing. A hard link adds no file.
   * Directories and symlinks do not count. Default: none. @see docs/limits.md (`--max-files`)
   */
  quotaFiles: number;

  /** The current tree. */
  private get root(): DirNode {
    return this.vol.tree;
  }

  /**
   * A tree holding only `/` (root-owned, 0755), or the given snapshot; `now` gives epoch ms (default Date.now);
   * `quotaBytes` as the property; `meter` counts work (tests); `nextIno` the first inode number a new node gets
   * (a tree rebuilt from saved rows starts past the numbers they hold).
   */
  constructor(opts: { now?: () => number; root?: VfsSnapshot; quotaBytes?: number; quotaFiles?: number; meter?: VfsMeter; nextIno?: number } = {}) {
    this.now = opts.now ?? Date.now;
    this.quotaBytes = opts.quotaBytes ?? Infinity;
    this.quotaFiles = opts.quotaFiles ?? Infinity;
    this.meter = opts.meter;
    if (opts.root) {
      this.vol = Vfs.unwrap(opts.root);
      this.nextIno = Math.max(this.vol.nextIno, opts.nextIno ?? 0);
    } else {
      this.nextIno = Math.max(FIRST_INO, opts.nextIno ?? 0);
      const tree = makeDir({ mode: DEFAULT_DIR_MODE, uid: 0, gid: 0, mtimeMs: this.now(), ino: ROOT_INO });
      this.vol = Object.freeze({ tree, table: EMPTY_TABLE, nextIno: this.nextIno });
    }
  }

  /**
   * A new sprite's tree: `/`, `/home`, `/tmp` (root-owned, 01777 as on Linux) and `/home/sprite` (uid/gid 1001,
   * 0755), nothing else. The sticky bit shows (`stat`, `ls -ld`, `test -k`); the shell engine enforces it for the sprite user (bash-fs.ts).
   * @see docs/wire-reference.md §13, docs/architecture.md "Machines and engines"
   */
  static skeleton(now?: () => number, opts: { quotaBytes?: number; quotaFiles?: number; meter?: VfsMeter } = {}): Vfs {
    const vfs = new Vfs({ now, ...opts });
    vfs.mkdir('/home');
    vfs.mkdir('/home/sprite');
    vfs.mkdir('/tmp', { mode: 0o1777 });
    vfs.chown('/home', 0, 0);
    vfs.chown('/tmp', 0, 0);
    return vfs;
  }

  /**
   * Normalises `path` to an absolute path: relative paths join `cwd` (default `/`), duplicate slashes collapse,
   * `.` and `..` resolve lexically and never climb above `/`, no trailing slash except for `/` itself.
   * Examples: `/a/../../b` → `/b`; `x//y/` with cwd `/home/sprite` → `/home/sprite/x/y`. This is the text's form
   * only: where `..` follows a symlink, or a slash follows a file, the lookup reaches elsewhere (`lookupPath`).
   */
  static normalize(path: string, cwd = '/'): string {
    return normalizePath(path, cwd);
  }

  /**
   * Stats `path`, following symlinks, with its inode number and link count. Throws ENOENT, ENOTDIR (a file on the
   * way), ELOOP (over 40 hops).
   */
  stat(path: string): VfsInodeStat {
    return this.statAt(absolute(path), true, 'stat');
  }

  /** Stats `path` without following a final symlink (its `target` is reported). Errors as `stat`. */
  lstat(path: string): VfsInodeStat {
    return this.statAt(absolute(path), false, 'lstat');
  }

  /** True when `path` exists after following symlinks (a dangling symlink is false). Never throws a VfsError. */
  exists(path: string): boolean {
    try {
      // A missing last component is `node: undefined`, not a throw: shells probe every PATH directory this way.
      return this.resolve(absolute(path), true, 'stat').node !== undefined;
    } catch (err) {
      if (err instanceof VfsError) return false;
      throw err;
    }
  }

  /**
   * `path` (absolute, or relative to `/`, as written) in the normal form that names what the kernel's lookup of it
   * reaches, for a caller that keeps paths normalised: a `..` climbs from the directory reached so far, through
   * any symlink on the way (`s/../f`, with `s` a link to `real/sub`, is `/real/f`, not `/f`); a trailing slash
   * (or a final `.`) stays when the path names no directory by itself (a file: the lookup still fails with
   * ENOTDIR; a symlink: it is still followed; nothing: a directory may still be made there). Where the lookup
   * fails before a `..` (a missing or non-directory component), the rest stays as written, for the lookup to fail
   * on. A path without `..` and without a trailing slash comes back as `Vfs.normalize` gives it. Never throws.
   * @see path_resolution(7)
   */
  lookupPath(path: string): string {
    const comps = absolute(path).split('/');
    let out: string[] = [];
    for (let i = 0; i < comps.length; i++) {
      const c = comps[i]!;
      if (c === '' || c === '.') continue;
      if (c !== '..') {
        out.push(c);
        continue;
      }
      let reached: Resolved | undefined;
      try {
        reached = this.resolve(toPath(out), true, 'stat');
      } catch {
        reached = undefined;
      }
      if (reached?.node?.kind !== 'directory') return `${toPath(out)}/${comps.slice(i).join('/')}`;
      out = reached.parts.slice(0, -1);
    }
    const clean = toPath(out);
    const named = comps.filter((c) => c !== '');
    const dirOnly = endsInSlash(path) || named[named.length - 1] === '.';
    if (!dirOnly) return clean;
    try {
      if (this.resolve(clean, false, 'lstat').node?.kind === 'directory') return clean;
    } catch (err) {
      // The lookup fails before the last name: the path with its slash fails the same way.
      if (!(err instanceof VfsError)) throw err;
    }
    return `${clean}/`;
  }

  /**
   * The canonical absolute path of `path`, with every symlink resolved (POSIX realpath). Errors as `stat`.
   */
  realpath(path: string): string {
    const p = Vfs.normalize(path);
    const r = this.resolve(absolute(path), true, 'realpath');
    if (!r.node) throw new VfsError('ENOENT', p, 'realpath');
    return toPath(r.parts);
  }

  /**
   * A copy of the bytes of the file at `path` (following symlinks); mutating it changes nothing stored.
   * Throws ENOENT, EISDIR on a directory, ENOTDIR, ELOOP.
   */
  readFile(path: string): Uint8Array {
    return this.readFileShared(path).slice();
  }

  /**
   * The stored bytes of the file at `path`, not a copy: for a caller that only reads them at once (turning them into
   * a string), so that a large file is not copied twice. The caller must never write to the array: a snapshot may
   * share it. Throws as `readFile`. @see docs/limits.md (a 60 MiB `cat`)
   */
  readFileShared(path: string): Readonly<Uint8Array> {
    const p = Vfs.normalize(path);
    const { parts, node, raw } = this.resolve(absolute(path), true, 'open');
    if (!node) throw new VfsError('ENOENT', p, 'open');
    if (node.kind === 'directory') throw new VfsError('EISDIR', p, 'read');
    this.accessed(parts, raw!, node);
    return (node as FileNode).data;
  }

  /**
   * Writes `data` (a string is UTF-8 encoded) to `path`, following a final symlink; creates the file (mode
   * `opts.mode` or 0644; inode number `opts.ino`, for a tree rebuilt from saved rows, or the next free one) or
   * replaces its contents (mode changes only if `opts.mode` is given) for every name of the file. `append` adds
   * to the end instead. `mkdirParents` creates missing parent directories (0755) first.
   * Throws ENOENT (parent missing and no `mkdirParents`), ENOTDIR (a file on the way), EISDIR (`path` is a
   * directory), ELOOP, ENOSPC (the disk quota).
   * @see docs/wire-reference.md §8.2
   */
  writeFile(path: string, data: Uint8Array | string, opts: { mode?: number; mkdirParents?: boolean; append?: boolean; ino?: number } = {}): void {
    const p = absolute(path);
    const bytes = toBytes(data);
    const now = this.now();
    let root = this.root;
    const lexical = Vfs.normalize(path);
    if (opts.mkdirParents && lexical !== '/') root = this.mkdirAll(root, Vfs.normalize(`${lexical}/..`), DEFAULT_DIR_MODE, now, 'open');
    if (endsInSlash(p)) {
      // open(O_CREAT) of `name/`: whatever is there (or not), a regular file cannot be made there.
      this.resolveIn(root, withoutSlash(p), true, 'open');
      throw new VfsError('EISDIR', lexical, 'open');
    }
    const { parts, node, raw } = this.resolveIn(root, p, true, 'open');
    if (node?.kind === 'directory') throw new VfsError('EISDIR', lexical, 'open');
    const existing = node as FileNode | undefined;
    const file: FileNode = Object.freeze({
      kind: 'file',
      ino: existing?.ino ?? this.takeIno(opts.ino),
      mode: opts.mode !== undefined ? opts.mode & PERMISSION_BITS : existing?.mode ?? DEFAULT_FILE_MODE,
      uid: existing?.uid ?? SPRITE_UID,
      gid: existing?.gid ?? SPRITE_GID,
      ...(existing ? pinAtime(existing) : {}),
      mtimeMs: now,
      data: opts.append && existing ? concat(existing.data, bytes) : bytes,
    });
    this.commitChecked(this.place(root, parts, raw, file, now, !existing), lexical, 'write');
  }

  /**
   * Creates the directory `path` (mode `opts.mode` or 0755; inode number `opts.ino` or the next free one). With
   * `recursive`, creates missing ancestors too and succeeds if the directory already exists (like `mkdir -p`).
   * Throws EEXIST (anything already there, unless recursive and it is a directory), ENOENT (parent missing,
   * not recursive), ENOTDIR (a file on the way), ELOOP.
   */
  mkdir(path: string, opts: { recursive?: boolean; mode?: number; ino?: number } = {}): void {
    // A trailing slash names the directory to make (mkdir(2) accepts `d/`); anything already there is EEXIST.
    const p = withoutSlash(absolute(path));
    const mode = (opts.mode ?? DEFAULT_DIR_MODE) & PERMISSION_BITS;
    const now = this.now();
    if (opts.recursive) {
      this.commit(this.mkdirAll(this.root, p, mode, now, 'mkdir'));
      return;
    }
    const { parts, node } = this.resolve(p, false, 'mkdir');
    if (node) throw new VfsError('EEXIST', Vfs.normalize(p), 'mkdir');
    this.commit(this.put(this.root, parts, makeDir({ mode, uid: SPRITE_UID, gid: SPRITE_GID, mtimeMs: now, ino: this.takeIno(opts.ino) }), now, true));
  }

  /**
   * The entries of the directory at `path` (following symlinks), sorted by name (byte order); each entry's
   * `path` is `path` + `/` + name and its `stat` is as `lstat` gives it. With `recursive`, every descendant
   * too, depth-first (a directory right before its own entries; symlinks are not followed), in one iterative
   * walk over the tree: linear in its size, any depth. Throws ENOENT, ENOTDIR, ELOOP.
   * @see docs/wire-reference.md §8.3
   */
  readdir(path: string, opts: { recursive?: boolean } = {}): Array<VfsEntry & { stat: VfsInodeStat }> {
    const p = Vfs.normalize(path);
    const found = this.resolve(absolute(path), true, 'scandir');
    const node = found.node;
    if (!node) throw new VfsError('ENOENT', p, 'scandir');
    if (node.kind !== 'directory') throw new VfsError('ENOTDIR', p, 'scandir');
    this.accessed(found.parts, found.raw!, node);
    const table = this.vol.table;
    const entriesOf = (dir: DirNode, at: string) =>
      sortedNames(dir).map((name) => ({ name, path: joinPath(at, name), node: dir.children.get(name)! }));
    const out: Array<VfsEntry & { stat: VfsInodeStat }> = [];
    const stack = [{ entries: entriesOf(node, p), next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next === top.entries.length) {
        stack.pop();
        continue;
      }
      const e = top.entries[top.next++]!;
      if (this.meter) this.meter.steps += 1;
      out.push({ name: e.name, path: e.path, stat: nodeStat(deref(table, e.node), nlinkOf(table, e.node)) });
      if (opts.recursive && e.node.kind === 'directory') stack.push({ entries: entriesOf(e.node, e.path), next: 0 });
    }
    return out;
  }

  /**
   * Removes `path` (a final symlink is removed itself, not its target) and returns the removed absolute paths,
   * `path` first, then its descendants depth-first in name order. An empty directory is removed without
   * `recursive` (as Go's os.Remove does). `force` turns a missing `path` into `[]`. A file with other names
   * stays under them (one fewer link).
   * Throws EINVAL for `/`, ENOENT, ENOTEMPTY (non-empty directory, not recursive), ENOTDIR, ELOOP.
   * @see docs/wire-reference.md §8.4
   */
  rm(path: string, opts: { recursive?: boolean; force?: boolean } = {}): string[] {
    const p = Vfs.normalize(path);
    if (p === '/') throw new VfsError('EINVAL', p, 'rm');
    let resolved: Resolved;
    try {
      resolved = this.resolveRemoved(absolute(path), 'rm');
    } catch (err) {
      if (opts.force && err instanceof VfsError && err.code === 'ENOENT') return [];
      throw err;
    }
    const { parts, node, raw } = resolved;
    if (!node || !raw) {
      if (opts.force) return [];
      throw new VfsError('ENOENT', p, 'rm');
    }
    if (node.kind === 'directory' && node.children.size > 0 && !opts.recursive) throw new VfsError('ENOTEMPTY', p, 'rm');
    const deleted: string[] = [];
    walk(raw, p, (at) => deleted.push(at), this.meter);
    const table = linksOf(raw) > 0 ? dropNamesIn(this.vol.table, raw, this.meter) : this.vol.table;
    this.commit(this.put(this.root, parts, undefined, this.now(), true), table);
    return deleted;
  }

  /**
   * Moves `src` to `dest` (POSIX rename: neither final symlink is followed; the moved node keeps its mtime, its
   * inode number and its other names). An existing `dest` is replaced when both are non-directories, or both are
   * directories and `dest` is empty. Renaming a path onto itself, or onto another name of the same file, does nothing.
   * Throws ENOENT (`src` or `dest`'s parent missing), EINVAL (`/`, or a directory into itself), EISDIR
   * (file onto a directory), ENOTDIR (directory onto a file, or a file on the way), ENOTEMPTY, ELOOP.
   * @see docs/wire-reference.md §8.5
   */
  rename(src: string, dest: string): void {
    const s = Vfs.normalize(src);
    const d = Vfs.normalize(dest);
    if (s === '/' || d === '/') throw new VfsError('EINVAL', s === '/' ? s : d, 'rename');
    const from = this.resolveRemoved(absolute(src), 'rename');
    if (!from.node || !from.raw) throw new VfsError('ENOENT', s, 'rename');
    // `rename(f, g/)`: only a directory can take a name that ends in a slash.
    if (endsInSlash(dest) && from.node.kind !== 'directory') throw new VfsError('ENOTDIR', d, 'rename');
    const to = this.resolveRemoved(absolute(dest), 'rename');
    if (toPath(from.parts) === toPath(to.parts)) return;
    if (from.raw.kind === 'link' && to.raw?.kind === 'link' && from.raw.ino === to.raw.ino) return;
    if (from.node.kind === 'directory' && isInside(to.parts, from.parts)) throw new VfsError('EINVAL', d, 'rename');
    if (to.node) {
      const srcIsDir = from.node.kind === 'directory';
      const destIsDir = to.node.kind === 'directory';
      if (srcIsDir && !destIsDir) throw new VfsError('ENOTDIR', d, 'rename');
      if (!srcIsDir && destIsDir) throw new VfsError('EISDIR', d, 'rename');
      if (destIsDir && (to.node as DirNode).children.size > 0) throw new VfsError('ENOTEMPTY', d, 'rename');
    }
    const now = this.now();
    const without = this.put(this.root, from.parts, undefined, now, true);
    const table = to.raw?.kind === 'link' ? dropName(this.vol.table, to.raw.ino) : this.vol.table;
    this.commit(this.put(without, to.parts, from.raw, now, true), table);
  }

  /**
   * Makes `newPath` another name of the file (or symlink: a final one is not followed, as link(2) on Linux) at
   * `existing`: both names then share content, mode, owner and mtime, and the file stays until its last name is
   * removed. Adds no bytes and no file to the quotas. The parent of `newPath` gets a new mtime.
   * Throws ENOENT (`existing` or `newPath`'s parent missing), EPERM (a directory), EEXIST (anything at `newPath`,
   * even a dangling symlink), ENOTDIR, ELOOP.
   */
  link(existing: string, newPath: string): void {
    const s = Vfs.normalize(existing);
    const d = Vfs.normalize(newPath);
    const from = this.resolve(absolute(existing), false, 'link');
    if (!from.node || !from.raw) throw new VfsError('ENOENT', s, 'link');
    if (from.node.kind === 'directory') throw new VfsError('EPERM', s, 'link');
    const to = this.resolveCreated(absolute(newPath), 'link');
    const now = this.now();
    const ino = from.node.ino;
    let tree = this.root;
    let table = this.vol.table;
    if (from.raw.kind === 'link') {
      const shared = table.inodes.get(ino)!;
      table = tableSet(table, ino, { node: shared.node, nlink: shared.nlink + 1 });
    } else {
      // The file's first extra name: its inode moves into the table, and its first name becomes a link to it.
      table = tableSet(table, ino, { node: from.node, nlink: 2 });
      tree = this.put(tree, from.parts, linkNode(ino), now, false);
    }
    this.commit(this.put(tree, to.parts, linkNode(ino), now, true), table);
  }

  /**
   * Copies `src` to exactly `dest` (not into it: callers that want `cp a dir/` semantics join the basename
   * themselves) and returns every copied pair, top first then depth-first in name order. The top `src` is
   * followed if it is a symlink; symlinks inside a copied directory are copied as symlinks. Copying onto an
   * existing directory merges into it, overwriting files (an overwritten file keeps its inode number and its other
   * names, which see the new content). Copies get mode of the source, the sprite user as owner and a fresh mtime,
   * unless `preserveAttrs` keeps owner and mtime too; a new copy is a new file (its own inode, one name). File
   * contents are shared, not duplicated (they are immutable).
   * Throws ENOENT, EISDIR (a directory without `recursive`, or a file onto a directory), ENOTDIR (a directory
   * onto a file), EINVAL (`dest` is `src` or inside it), ELOOP, ENOSPC (the disk quota).
   * @see docs/wire-reference.md §8.6
   */
  copy(src: string, dest: string, opts: { recursive?: boolean; preserveAttrs?: boolean } = {}): Array<{ source: string; dest: string }> {
    const s = Vfs.normalize(src);
    const d = Vfs.normalize(dest);
    const from = this.resolve(absolute(src), true, 'copyfile');
    if (!from.node) throw new VfsError('ENOENT', s, 'copyfile');
    if (from.node.kind === 'directory' && !opts.recursive) throw new VfsError('EISDIR', s, 'copyfile');
    const to = this.resolve(absolute(dest), true, 'copyfile');
    if (isInside(to.parts, from.parts)) throw new VfsError('EINVAL', d, 'copyfile');
    const now = this.now();
    const copied: Array<{ source: string; dest: string }> = [];
    const meta = (n: VfsNode & NodeMeta): NodeMeta =>
      opts.preserveAttrs ? n : { mode: n.mode, uid: SPRITE_UID, gid: SPRITE_GID, mtimeMs: now, mtimeNs: undefined, atimeMs: undefined, atimeNs: undefined };
    let table = this.vol.table;
    type At = { existing: VfsNode | undefined; sp: string; dp: string };
    const built = rebuild<At>(
      from.node,
      { existing: to.raw, sp: s, dp: d },
      (raw, { existing: exRaw, sp, dp }) => {
        copied.push({ source: sp, dest: dp });
        const node = deref(table, raw);
        const existing = exRaw && deref(table, exRaw);
        if (node.kind !== 'directory') {
          if (existing?.kind === 'directory') throw new VfsError('EISDIR', dp, 'copyfile');
          const keep = existing?.kind === node.kind ? existing.ino : this.takeIno();
          const copy = Object.freeze({ ...node, ...meta(node), ino: keep });
          if (exRaw?.kind !== 'link') return { done: copy };
          if (existing?.kind !== node.kind) {
            table = dropName(table, exRaw.ino); // another kind of file replaces this name
            return { done: copy };
          }
          // Written into the existing file: every other name of it sees the copy.
          table = tableSet(table, exRaw.ino, { node: copy, nlink: table.inodes.get(exRaw.ino)!.nlink });
          return { done: exRaw };
        }
        if (existing && existing.kind !== 'directory') throw new VfsError('ENOTDIR', dp, 'copyfile');
        const children = existing ? existing.children : ImmMap<string, VfsNode>();
        return {
          children,
          names: sortedNames(node),
          child: (name) => ({
            node: node.children.get(name)!,
            ctx: { existing: children.get(name), sp: joinPath(sp, name), dp: joinPath(dp, name) },
          }),
          finish: (done) => makeDir(existing ? { ...existing, ...pinAtime(existing), mtimeMs: now, mtimeNs: undefined } : { ...meta(node), ino: this.takeIno() }, done),
        };
      },
      this.meter,
    );
    const tree = built === to.raw ? this.root : this.put(this.root, to.parts, built, now, !to.node);
    this.commitChecked({ tree, table }, d, 'copyfile');
    return copied;
  }

  /**
   * Sets the permission bits of `path` (following symlinks) to `mode & 0o7777`; with `recursive`, of every node
   * below it too (symlinks inside are skipped). Returns the changed paths, top first. mtimes do not change.
   * Throws ENOENT, ENOTDIR, ELOOP.
   * @see docs/wire-reference.md §8.7
   */
  chmod(path: string, mode: number, opts: { recursive?: boolean } = {}): Array<{ path: string; mode: number }> {
    const m = mode & PERMISSION_BITS;
    return this.updateMeta(path, 'chmod', opts.recursive, () => ({ mode: m })).map((at) => ({ path: at, mode: m }));
  }

  /**
   * Sets the owner of `path` (following symlinks); `-1` leaves that id unchanged (POSIX chown). With
   * `recursive`, every node below it too (symlinks inside are skipped). Returns the changed paths with the
   * resulting ids, top first. Throws ENOENT, ENOTDIR, ELOOP.
   * @see docs/wire-reference.md §8.8
   */
  chown(path: string, uid: number, gid: number, opts: { recursive?: boolean } = {}): Array<{ path: string; uid: number; gid: number }> {
    const out: Array<{ path: string; uid: number; gid: number }> = [];
    this.updateMeta(path, 'chown', opts.recursive, (n, at) => {
      const ids = { uid: uid === -1 ? n.uid : uid, gid: gid === -1 ? n.gid : gid };
      out.push({ path: at, ...ids });
      return ids;
    });
    return out;
  }

  /**
   * Creates a symlink at `linkPath` whose target is `target`, stored verbatim (relative targets resolve against
   * the link's directory when followed); `opts.ino` as for `writeFile`; owned by `opts.uid`/`opts.gid` (default the
   * sprite user, who makes links at run time; the Linux skeleton's are root's). Throws EEXIST (anything at
   * `linkPath`, even a dangling symlink), ENOENT (parent missing, or an empty target), ENOTDIR, ELOOP.
   */
  symlink(target: string, linkPath: string, opts: { ino?: number; uid?: number; gid?: number } = {}): void {
    const p = Vfs.normalize(linkPath);
    if (target === '') throw new VfsError('ENOENT', p, 'symlink');
    const { parts } = this.resolveCreated(absolute(linkPath), 'symlink');
    const now = this.now();
    const link: SymlinkNode = Object.freeze({ kind: 'symlink', ino: this.takeIno(opts.ino), target, mode: SYMLINK_MODE, uid: opts.uid ?? SPRITE_UID, gid: opts.gid ?? SPRITE_GID, mtimeMs: now });
    this.commit(this.put(this.root, parts, link, now, true));
  }

  /** The stored target of the symlink at `path`. Throws ENOENT, EINVAL (not a symlink), ENOTDIR, ELOOP. */
  readlink(path: string): string {
    const p = Vfs.normalize(path);
    const node = this.existing(absolute(path), false, 'readlink');
    if (node.kind !== 'symlink') throw new VfsError('EINVAL', p, 'readlink');
    return node.target;
  }

  /**
   * Sets the mtime (epoch ms, and `opts.ns` nanoseconds past it, 0–999999, when the time has them) of `path` (every
   * name of the file), following symlinks unless `opts.noFollow` (utimensat's AT_SYMLINK_NOFOLLOW: a symlink's own
   * time, `touch -h`), and its access time to `opts.atime` (the same units), or to the mtime when not given.
   * Throws ENOENT, ENOTDIR, ELOOP.
   */
  utimes(path: string, mtimeMs: number, opts: { ns?: number; noFollow?: boolean; atime?: { ms: number; ns?: number } } = {}): void {
    const p = Vfs.normalize(path);
    const { parts, node, raw } = this.resolve(absolute(path), !opts.noFollow, 'utime');
    if (!node) throw new VfsError('ENOENT', p, 'utime');
    const nanos = (ns: number | undefined) => (ns === undefined ? undefined : Math.min(999_999, Math.max(0, Math.trunc(ns))));
    const atime = opts.atime ? { atimeMs: opts.atime.ms, atimeNs: nanos(opts.atime.ns) } : { atimeMs: undefined, atimeNs: undefined };
    this.commit(...this.placed(this.place(this.root, parts, raw, Object.freeze({ ...node, mtimeMs, mtimeNs: nanos(opts.ns), ...atime }), this.now(), false)));
  }

  /** Every path in the tree (directories included, `/` excluded), depth-first in name order. O(n). */
  allPaths(): string[] {
    const out: string[] = [];
    walk(this.root, '/', (at) => out.push(at), this.meter);
    return out.slice(1);
  }

  /**
   * The current tree as an immutable snapshot, O(1): later writes build new nodes and never touch it.
   * @see docs/wire-reference.md §7.1, §7.7
   */
  snapshot(): VfsSnapshot {
    return this.vol as unknown as VfsSnapshot;
  }

  /**
   * Makes `snapshot` the current tree, O(1). Writes afterwards leave the snapshot unchanged, and new files get
   * inode numbers no file of the tree before the restore had. @see docs/wire-reference.md §7.5
   */
  restore(snapshot: VfsSnapshot): void {
    const vol = Vfs.unwrap(snapshot);
    this.nextIno = Math.max(this.nextIno, vol.nextIno);
    this.swap(vol);
  }

  /**
   * Calls `listener` after every change of the tree (any successful mutation, and restores). It receives
   * nothing: compare `snapshot()`s with `Vfs.diff` to learn what changed. Returns the unsubscribe function.
   */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * What changed between two snapshots at or below `path` (absolute, canonical): `create` / `remove` for
   * entries that appear or vanish, `write` for files whose content or mtime changed, `chmod` for mode or owner
   * changes. Unchanged subtrees are skipped by reference, so the cost follows the size of the change, not of
   * the tree (plus, when a file with several names changed, the paths to the names). A file changed through one
   * name is reported at each of its names. With `recursive: false` only `path` and its direct children are compared.
   * A rename shows as `remove` of the old path and `create` of the new one.
   */
  static diff(before: VfsSnapshot, after: VfsSnapshot, path = '/', opts: { recursive?: boolean; meter?: VfsMeter } = {}): VfsChange[] {
    const parts = Vfs.normalize(path).split('/').filter(Boolean);
    const at = (root: DirNode): VfsNode | undefined => {
      let node: VfsNode | undefined = root;
      for (const part of parts) node = node?.kind === 'directory' ? node.children.get(part) : undefined;
      return node;
    };
    const a = Vfs.unwrap(before);
    const b = Vfs.unwrap(after);
    const out: VfsChange[] = [];
    diffNodes(a, b, at(a.tree), at(b.tree), Vfs.normalize(path), opts.recursive ?? true ? Infinity : 1, out, opts.meter);
    return out;
  }

  /** Sum of the sizes of all regular files, in bytes (a file with several names once). O(1) (kept as aggregates). */
  totalBytes(): number {
    return this.root.bytes + this.vol.table.bytes;
  }

  /** Number of regular files in the tree (a file with several names once). O(1). */
  fileCount(): number {
    return this.root.files + this.vol.table.files;
  }

  private static unwrap(snapshot: VfsSnapshot): Volume {
    const vol = snapshot as unknown as Volume;
    if (vol?.tree?.kind !== 'directory' || !ImmMap.isMap(vol.tree.children) || !ImmMap.isMap(vol.table?.inodes)) throw new TypeError('not a VfsSnapshot');
    return vol;
  }

  /** Makes `vol` current and tells the listeners, when it is another volume. */
  private swap(vol: Volume): void {
    if (vol === this.vol) return;
    this.vol = vol;
    for (const listener of [...this.changeListeners]) listener();
  }

  /** Makes `tree` (with `table`) the current volume. */
  private commit(tree: DirNode, table: Table = this.vol.table): void {
    if (tree === this.vol.tree && table === this.vol.table) return;
    this.swap(Object.freeze({ tree, table, nextIno: this.nextIno }));
  }

  /** `commit`, after checking the quotas (`withinQuota`). */
  private commitChecked(next: { tree: DirNode; table: Table }, path: string, syscall: string): void {
    this.withinQuota(next, path, syscall);
    this.commit(next.tree, next.table);
  }

  /** A new inode number: `wanted` when given (a rebuilt tree's own), else the next free one. */
  private takeIno(wanted?: number): number {
    if (wanted === undefined) return this.nextIno++;
    this.nextIno = Math.max(this.nextIno, wanted + 1);
    return wanted;
  }

  /**
   * Moves the access time of `node` (reached through the name `raw` at `parts`) to now when reading it would under
   * Linux's relatime (`readMovesAtime`). The change listeners run (there is a new snapshot), but `Vfs.diff` ignores
   * access times: a watcher or the disk journal finds nothing changed.
   */
  private accessed(parts: readonly string[], raw: VfsNode, node: Inode): void {
    const now = this.now();
    if (!readMovesAtime(node, now)) return;
    this.commit(...this.placed(this.place(this.root, parts, raw, Object.freeze({ ...node, atimeMs: now, atimeNs: undefined }), now, false)));
  }

  /**
   * Puts the new version `node` of the inode that the name `raw` at `parts` leads to: in the table when the name is
   * a link (every name sees it, the tree is unchanged), else in the tree at `parts`.
   */
  private place(root: DirNode, parts: readonly string[], raw: VfsNode | undefined, node: Inode, now: number, touch: boolean): { tree: DirNode; table: Table } {
    const table = this.vol.table;
    if (raw?.kind !== 'link') return { tree: this.put(root, parts, node, now, touch), table };
    return { tree: root, table: tableSet(table, raw.ino, { node: node as FileNode | SymlinkNode, nlink: table.inodes.get(raw.ino)!.nlink }) };
  }

  /** `place`'s result as `commit`'s arguments. */
  private placed(next: { tree: DirNode; table: Table }): [DirNode, Table] {
    return [next.tree, next.table];
  }

  /** Stats the normalised `p`. */
  private statAt(p: string, followLast: boolean, syscall: string): VfsInodeStat {
    const { node, raw } = this.resolve(p, followLast, syscall);
    if (!node || !raw) throw new VfsError('ENOENT', Vfs.normalize(p), syscall);
    return nodeStat(node, nlinkOf(this.vol.table, raw));
  }

  /** Resolves against the current root and insists the node exists (ENOENT otherwise). */
  private existing(p: string, followLast: boolean, syscall: string): Inode {
    const { node } = this.resolve(p, followLast, syscall);
    if (!node) throw new VfsError('ENOENT', Vfs.normalize(p), syscall);
    return node;
  }

  private resolve(p: string, followLast: boolean, syscall: string): Resolved {
    return this.resolveIn(this.root, p, followLast, syscall);
  }

  /**
   * Walks normalised path `p` from `root`, following symlinks on the way (and the last one if `followLast`).
   * Returns the canonical path of the final entry and the node there, or `node: undefined` when only the last
   * component is missing (its parent is then an existing directory). Throws ENOENT (missing on the way),
   * ENOTDIR (a non-directory on the way), ELOOP (over MAX_SYMLINK_HOPS).
   */
  private resolveIn(root: DirNode, p: string, followLast: boolean, syscall: string): Resolved {
    const names = p.split('/').filter((c) => c !== '').reverse();
    const dirOnly = endsInSlash(p);
    const found = this.walkFrom({ parts: [], dirs: [root], hops: 0 }, names, followLast || dirOnly, () => Vfs.normalize(p), syscall);
    if (dirOnly && found.node && found.node.kind !== 'directory') throw new VfsError('ENOTDIR', Vfs.normalize(p), syscall);
    return found;
  }

  /**
   * Resolves the path `p` (absolute, as written) of an entry to remove or rename: its final symlink is the entry
   * itself, never followed, so `p` with a trailing slash must name a directory itself (ENOTDIR for a file or a
   * symlink, as unlink(2), rmdir(2) and rename(2) give for `f/` and `link/`).
   */
  private resolveRemoved(p: string, syscall: string): Resolved {
    const found = this.resolve(withoutSlash(p), false, syscall);
    if (endsInSlash(p) && found.node && found.node.kind !== 'directory') throw new VfsError('ENOTDIR', Vfs.normalize(p), syscall);
    return found;
  }

  /**
   * Resolves the path `p` (absolute, as written) where a new entry is to be made that is not a directory (a link,
   * a symlink): EEXIST when anything is there (a final symlink is not followed), ENOENT when `p` ends in a slash
   * (symlink(2) and link(2) cannot make `name/`).
   */
  private resolveCreated(p: string, syscall: string): Resolved {
    const found = this.resolve(withoutSlash(p), false, syscall);
    if (found.node) throw new VfsError('EEXIST', Vfs.normalize(p), syscall);
    if (endsInSlash(p)) throw new VfsError('ENOENT', Vfs.normalize(p), syscall);
    return found;
  }

  /**
   * The lookup loop of `resolveIn`, from a directory already reached (`at`: its canonical components, the
   * directories from the root to it, the symlink hops so far; updated in place to the final entry's parent).
   * `names` is a stack (the next component last), so a symlink's target is pushed in O(its length) and the
   * whole walk is linear in the path's length. `errPath` names the path in errors (computed only on failure).
   */
  private walkFrom(
    at: { parts: string[]; dirs: DirNode[]; hops: number },
    names: string[],
    followLast: boolean,
    errPath: () => string,
    syscall: string,
  ): Resolved {
    const { parts, dirs } = at;
    const table = this.vol.table;
    while (names.length > 0) {
      const name = names.pop()!;
      if (this.meter) this.meter.steps += 1;
      if (name === '.') continue;
      if (name === '..') {
        if (parts.length > 0) {
          parts.pop();
          dirs.pop();
        }
        continue;
      }
      const dir = dirs[dirs.length - 1]!;
      const raw = dir.children.get(name);
      const last = names.length === 0;
      if (!raw) {
        if (last) return { parts: [...parts, name], node: undefined, raw: undefined };
        throw new VfsError('ENOENT', errPath(), syscall);
      }
      const child = deref(table, raw);
      if (child.kind === 'symlink' && (!last || followLast)) {
        if (++at.hops > MAX_SYMLINK_HOPS) throw new VfsError('ELOOP', errPath(), syscall);
        if (child.target.startsWith('/')) {
          parts.length = 0;
          dirs.length = 1;
        }
        const target = child.target.split('/').filter((c) => c !== '');
        for (let i = target.length - 1; i >= 0; i--) names.push(target[i]!);
        continue;
      }
      if (last) return { parts: [...parts, name], node: child, raw };
      if (child.kind !== 'directory') throw new VfsError('ENOTDIR', errPath(), syscall);
      parts.push(name);
      dirs.push(child);
    }
    const top = dirs[dirs.length - 1]!;
    return { parts: [...parts], node: top, raw: top };
  }

  /**
   * `mkdir -p` on a draft root: creates each missing component of `p` with `mode`, returns the new root.
   * Linear in the length of `p`: each component is looked up once from its parent (following symlinks as
   * `mkdir -p` does component by component), and the missing tail is built bottom-up and put in place at once.
   */
  private mkdirAll(root: DirNode, p: string, mode: number, now: number, syscall: string): DirNode {
    const comps = p.split('/').filter((c) => c !== '');
    const at = { parts: [] as string[], dirs: [root], hops: 0 };
    for (let i = 0; i < comps.length; i++) {
      at.hops = 0; // each component is its own lookup, as in `mkdir -p`
      if (comps[i] === '.') continue;
      if (comps[i] === '..') {
        // The parent of the directory reached (through any symlink on the way), as the kernel takes `..`.
        if (at.parts.length > 0) {
          at.parts.pop();
          at.dirs.pop();
        }
        continue;
      }
      const prefix = () => toPath(comps.slice(0, i + 1));
      const { parts, node } = this.walkFrom(at, [comps[i]!], true, prefix, syscall);
      if (node?.kind === 'directory') {
        at.parts.push(parts[parts.length - 1]!);
        at.dirs.push(node);
        continue;
      }
      if (node) throw new VfsError(i === comps.length - 1 && syscall === 'mkdir' ? 'EEXIST' : 'ENOTDIR', Vfs.normalize(p), syscall);
      const meta = { mode, uid: SPRITE_UID, gid: SPRITE_GID, mtimeMs: now };
      if (comps.slice(i + 1).some((c) => c === '.' || c === '..')) {
        // A `..` further on climbs out of what is made here: make this one directory, then go on from it.
        root = this.put(root, parts, makeDir({ ...meta, ino: this.takeIno() }), now, true);
        at.parts.push(parts[parts.length - 1]!);
        at.dirs.length = 1;
        at.dirs[0] = root;
        for (const name of at.parts) at.dirs.push(at.dirs[at.dirs.length - 1]!.children.get(name) as DirNode);
        continue;
      }
      // Missing from here on: build the chain of new directories bottom-up and put it in place at once.
      let chain: DirNode = makeDir({ ...meta, ino: this.takeIno() });
      for (let j = comps.length - 1; j > i; j--) chain = makeDir({ ...meta, ino: this.takeIno() }, ImmMap([[comps[j]!, chain]]));
      if (this.meter) this.meter.steps += comps.length - i;
      return this.put(root, parts, chain, now, true);
    }
    return root;
  }

  /** `putNode` with this tree's meter. */
  private put(root: DirNode, parts: readonly string[], node: VfsNode | undefined, now: number, touch: boolean): DirNode {
    return putNode(root, parts, node, now, touch, this.meter);
  }

  /**
   * Throws ENOSPC at `path` unless `next` holds no more file bytes (and no more regular files) than the quotas
   * allow, or no more than the current volume (a write that does not grow the disk always works).
   */
  private withinQuota(next: { tree: DirNode; table: Table }, path: string, syscall: string): void {
    const bytes = next.tree.bytes + next.table.bytes;
    const files = next.tree.files + next.table.files;
    if (bytes > this.quotaBytes && bytes > this.totalBytes()) throw new VfsError('ENOSPC', path, syscall);
    if (files > this.quotaFiles && files > this.fileCount()) throw new VfsError('ENOSPC', path, syscall);
  }

  /**
   * Rebuilds `path` (and with `recursive` its subtree, skipping nested symlinks) with `change` applied; a file with
   * several names changes for all of them (in the table).
   */
  private updateMeta(
    path: string,
    syscall: string,
    recursive: boolean | undefined,
    change: (node: Inode, at: string) => Partial<NodeMeta>,
  ): string[] {
    const p = Vfs.normalize(path);
    const { parts, node, raw } = this.resolve(absolute(path), true, syscall);
    if (!node || !raw) throw new VfsError('ENOENT', p, syscall);
    const changed: string[] = [];
    let table = this.vol.table;
    const updated = rebuild<string>(
      raw,
      p,
      (n, at) => {
        changed.push(at);
        if (n.kind === 'link') {
          const shared = table.inodes.get(n.ino)!;
          table = tableSet(table, n.ino, { node: Object.freeze({ ...shared.node, ...change(shared.node, at) }), nlink: shared.nlink });
          return { done: n };
        }
        const meta = change(n, at);
        if (n.kind !== 'directory' || !recursive) return { done: Object.freeze({ ...n, ...meta }) };
        return {
          children: n.children,
          names: sortedNames(n),
          child: (name) => {
            const child = n.children.get(name)!;
            return deref(table, child).kind === 'symlink' ? null : { node: child, ctx: joinPath(at, name) };
          },
          finish: (children) => Object.freeze({ ...n, ...meta, children }),
        };
      },
      this.meter,
    );
    this.commit(updated === raw ? this.root : this.put(this.root, parts, updated, this.now(), false), table);
    return changed;
  }
}

/**
 * Calls `visit` for `node` at `at`, then for its descendants depth-first in name order. Iterative: any depth.
 */
function walk(node: VfsNode, at: string, visit: (at: string) => void, meter?: VfsMeter): void {
  const stack: Array<{ node: VfsNode; at: string }> = [{ node, at }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (meter) meter.steps += 1;
    visit(top.at);
    if (top.node.kind !== 'directory') continue;
    const names = sortedNames(top.node);
    for (let i = names.length - 1; i >= 0; i--) stack.push({ node: top.node.children.get(names[i]!)!, at: joinPath(top.at, names[i]!) });
  }
}

/**
 * What `rebuild` does at one node: either the finished replacement (`done`), or a directory whose children are
 * rebuilt one by one (`names` in order; `child` gives the node and context to rebuild for a name, or null to keep
 * `children`' entry as is) and then `finish`ed into the replacement.
 */
type RebuildStep<T> =
  | { done: VfsNode }
  | {
      children: ImmMap<string, VfsNode>;
      names: string[];
      child: (name: string) => { node: VfsNode; ctx: T } | null;
      finish: (children: ImmMap<string, VfsNode>) => VfsNode;
    };

/**
 * Rebuilds the subtree `top` bottom-up without recursion: `step` runs for each node in depth-first pre-order (a
 * directory before its children, children in `names` order), and each directory is finished once all its
 * children are rebuilt. Used by copy, chmod and chown, so a tree of any depth is fine.
 */
function rebuild<T>(top: VfsNode, ctx: T, step: (node: VfsNode, ctx: T) => RebuildStep<T>, meter?: VfsMeter): VfsNode {
  type Frame = Exclude<RebuildStep<T>, { done: VfsNode }> & { next: number; pending?: string };
  const frames: Frame[] = [];
  let result: VfsNode | undefined;
  const enter = (node: VfsNode, c: T) => {
    if (meter) meter.steps += 1;
    const s = step(node, c);
    if ('done' in s) result = s.done;
    else frames.push({ ...s, next: 0 });
  };
  enter(top, ctx);
  while (frames.length > 0) {
    const f = frames[frames.length - 1]!;
    if (f.pending !== undefined) {
      f.children = f.children.set(f.pending, result!);
      f.pending = undefined;
    }
    if (f.next === f.names.length) {
      frames.pop();
      result = f.finish(f.children);
      continue;
    }
    const name = f.names[f.next++]!;
    const c = f.child(name);
    if (!c) continue;
    f.pending = name;
    enter(c.node, c.ctx);
  }
  return result!;
}
