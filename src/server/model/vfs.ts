/**
 * The in-memory persistent filesystem of one sprite: a real tree of directories, files and symlinks with modes,
 * mtimes, sizes and owners, and POSIX-style errors. Directory children are `immutable` Maps and nodes are never
 * mutated, so a write copies only the path from the root to the changed node and a snapshot is just the root
 * reference (O(1) to take and to restore). It knows nothing of HTTP, exec engines or checkpoint ids.
 */
import { Map as ImmMap } from 'immutable';

/** POSIX error codes the VFS raises. @see sprites-wire.md §8.9 */
export type VfsErrorCode = 'ENOENT' | 'EEXIST' | 'ENOTDIR' | 'EISDIR' | 'ENOTEMPTY' | 'EINVAL' | 'ELOOP' | 'EACCES';

const DESCRIPTIONS: Record<VfsErrorCode, string> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file already exists',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  ENOTEMPTY: 'directory not empty',
  EINVAL: 'invalid argument',
  ELOOP: 'too many symbolic links encountered',
  EACCES: 'permission denied',
};

/**
 * A filesystem error with a POSIX `code` and the normalised absolute `path` it concerns. The message reads like
 * Node's, e.g. `ENOENT: no such file or directory, open '/x'`; `syscall` names the operation (`open`, `mkdir`,
 * `scandir`, `rm`, `rename`, `copyfile`, `chmod`, `chown`, `symlink`, `readlink`, `stat`, `lstat`, `utime`).
 * @see sprites-wire.md §8.9 (the HTTP layer maps `code` to a status and the `{error, code, path}` envelope)
 */
export class VfsError extends Error {
  constructor(
    readonly code: VfsErrorCode,
    readonly path: string,
    readonly syscall = 'open',
  ) {
    super(`${code}: ${DESCRIPTIONS[code]}, ${syscall} '${path}'`);
    this.name = 'VfsError';
  }
}

/** The kind of a node, named as the fs list API names it. @see sprites-wire.md §8.3 */
export type VfsNodeType = 'file' | 'directory' | 'symlink';

/**
 * What `stat`/`lstat` report. `mode` holds permission bits only (e.g. `0o644`, at most `0o7777`); `size` is bytes
 * (directories report 4096, symlinks the UTF-8 length of their target); `mtimeMs` is epoch milliseconds from the
 * injected clock; `target` is set for symlinks.
 * @see sprites-wire.md §8.3
 */
export interface VfsStat {
  type: VfsNodeType;
  mode: number;
  size: number;
  mtimeMs: number;
  uid: number;
  gid: number;
  target?: string;
}

/** One directory entry: `name` is the basename, `path` the absolute path, `stat` as `lstat` gives it. */
export interface VfsEntry {
  name: string;
  path: string;
  stat: VfsStat;
}

declare const snapshotBrand: unique symbol;
/** An opaque immutable snapshot of a whole tree; O(1) to take and to restore, never changed by later writes. */
export type VfsSnapshot = { readonly [snapshotBrand]: true };

/** The uid/gid of the `sprite` user, owner of everything created after the skeleton. @see sprites-wire.md §13 */
export const SPRITE_UID = 1000;
/** Linux's limit on symlinks followed in one lookup (MAXSYMLINKS). */
export const MAX_SYMLINK_HOPS = 40;
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
}
interface FileNode extends NodeMeta {
  readonly kind: 'file';
  readonly data: Uint8Array;
}
interface SymlinkNode extends NodeMeta {
  readonly kind: 'symlink';
  readonly target: string;
}
interface DirNode extends NodeMeta {
  readonly kind: 'directory';
  readonly children: ImmMap<string, VfsNode>;
  /** Sum of file sizes in this subtree, kept up to date on every path copy. */
  readonly bytes: number;
  /** Number of regular files in this subtree. */
  readonly files: number;
}
type VfsNode = FileNode | SymlinkNode | DirNode;

/** A lookup result: the canonical (symlink-free) path as components, and the node there if it exists. */
interface Resolved {
  parts: string[];
  node: VfsNode | undefined;
}

const encoder = new TextEncoder();

function bytesOf(node: VfsNode | undefined): number {
  if (!node) return 0;
  return node.kind === 'file' ? node.data.byteLength : node.kind === 'directory' ? node.bytes : 0;
}
function filesOf(node: VfsNode | undefined): number {
  if (!node) return 0;
  return node.kind === 'file' ? 1 : node.kind === 'directory' ? node.files : 0;
}

function makeDir(meta: NodeMeta, children: ImmMap<string, VfsNode> = ImmMap()): DirNode {
  let bytes = 0;
  let files = 0;
  for (const child of children.values()) {
    bytes += bytesOf(child);
    files += filesOf(child);
  }
  return Object.freeze({ kind: 'directory', mode: meta.mode, uid: meta.uid, gid: meta.gid, mtimeMs: meta.mtimeMs, children, bytes, files });
}

/** Replaces one child of `dir` (or removes it when `child` is undefined), adjusting aggregates in O(1). */
function withChild(dir: DirNode, name: string, child: VfsNode | undefined, mtimeMs: number): DirNode {
  const old = dir.children.get(name);
  const children = child ? dir.children.set(name, child) : dir.children.remove(name);
  return Object.freeze({
    ...dir,
    children,
    mtimeMs,
    bytes: dir.bytes - bytesOf(old) + bytesOf(child),
    files: dir.files - filesOf(old) + filesOf(child),
  });
}

/**
 * Returns a new root with `node` placed at the canonical path `parts` (or the entry removed when `node` is
 * undefined), copying only the directories on the way. `touch` sets the parent directory's mtime (an entry was
 * added or removed). Throws a plain Error if `parts` is not canonical: callers resolve first.
 */
function putNode(root: DirNode, parts: readonly string[], node: VfsNode | undefined, now: number, touch: boolean): DirNode {
  if (parts.length === 0) {
    if (node?.kind !== 'directory') throw new Error('vfs: the root can only be replaced by a directory');
    return node;
  }
  const go = (dir: DirNode, i: number): DirNode => {
    const name = parts[i]!;
    if (i === parts.length - 1) return withChild(dir, name, node, touch ? now : dir.mtimeMs);
    const sub = dir.children.get(name);
    if (sub?.kind !== 'directory') throw new Error(`vfs: non-canonical path /${parts.join('/')}`);
    return withChild(dir, name, go(sub, i + 1), dir.mtimeMs);
  };
  return go(root, 0);
}

function nodeStat(node: VfsNode): VfsStat {
  const base = { mode: node.mode, mtimeMs: node.mtimeMs, uid: node.uid, gid: node.gid };
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

/** One change found by `Vfs.diff` (the event names of the fs watch API, sprites-wire.md §6.3). */
export interface VfsChange {
  path: string;
  event: 'create' | 'write' | 'remove' | 'chmod';
  isDir: boolean;
  /** Size after the change (0 for removals and directories). */
  size: number;
}

function changeOf(path: string, event: VfsChange['event'], node: VfsNode): VfsChange {
  return { path, event, isDir: node.kind === 'directory', size: event === 'remove' || node.kind !== 'file' ? 0 : node.data.byteLength };
}

function emitTree(node: VfsNode, path: string, event: 'create' | 'remove', depth: number, out: VfsChange[]): void {
  out.push(changeOf(path, event, node));
  if (node.kind !== 'directory' || depth <= 0) return;
  for (const [name, child] of node.children) emitTree(child, join(path, name), event, depth - 1, out);
}

function join(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

function diffNodes(a: VfsNode | undefined, b: VfsNode | undefined, path: string, depth: number, out: VfsChange[]): void {
  if (a === b) return;
  if (!a) return void emitTree(b!, path, 'create', depth, out);
  if (!b) return void emitTree(a, path, 'remove', depth, out);
  if (a.kind !== b.kind) {
    emitTree(a, path, 'remove', depth, out);
    emitTree(b, path, 'create', depth, out);
    return;
  }
  if (a.kind === 'file' && b.kind === 'file' && (a.data !== b.data || a.mtimeMs !== b.mtimeMs)) out.push(changeOf(path, 'write', b));
  else if (a.kind === 'symlink' && b.kind === 'symlink' && a.target !== b.target) out.push(changeOf(path, 'write', b));
  else if (a.mode !== b.mode || a.uid !== b.uid || a.gid !== b.gid) out.push(changeOf(path, 'chmod', b));
  if (a.kind !== 'directory' || b.kind !== 'directory' || depth <= 0 || a.children === b.children) return;
  for (const [name, child] of b.children) diffNodes(a.children.get(name), child, join(path, name), depth - 1, out);
  for (const [name, child] of a.children) if (!b.children.has(name)) emitTree(child, join(path, name), 'remove', depth - 1, out);
}

/**
 * A sprite's filesystem. Every method takes absolute or relative paths (relative ones resolve against `/`), and
 * every mutation is atomic: it builds a new root and swaps it in only when it succeeds, so a failed call changes
 * nothing. New nodes are owned by the sprite user (uid/gid 1000) and stamped with the injected `now`.
 * @see sprites-wire.md §8 (filesystem API), §7 (checkpoints), DESIGN.md "Exec engines"
 */
export class Vfs {
  private current!: DirNode;
  private readonly now: () => number;
  private readonly changeListeners = new Set<() => void>();

  /** The current root; every swap (a mutation or a restore) notifies the change listeners. */
  private get root(): DirNode {
    return this.current;
  }
  private set root(next: DirNode) {
    if (next === this.current) return;
    this.current = next;
    for (const listener of [...this.changeListeners]) listener();
  }

  /** A tree holding only `/` (root-owned, 0755), or the given snapshot; `now` gives epoch ms (default Date.now). */
  constructor(opts: { now?: () => number; root?: VfsSnapshot } = {}) {
    this.now = opts.now ?? Date.now;
    this.root = opts.root ? Vfs.unwrap(opts.root) : makeDir({ mode: DEFAULT_DIR_MODE, uid: 0, gid: 0, mtimeMs: this.now() });
  }

  /**
   * A new sprite's tree: `/`, `/home`, `/tmp` (root-owned) and `/home/sprite` (uid/gid 1000, 0755), nothing else.
   * @deviation `/tmp` is 0777 rather than 01777: the sticky bit has no effect here (there is one user).
   * @see sprites-wire.md §13, DESIGN.md "Exec engines"
   */
  static skeleton(now?: () => number): Vfs {
    const vfs = new Vfs({ now });
    vfs.mkdir('/home');
    vfs.mkdir('/home/sprite');
    vfs.mkdir('/tmp', { mode: 0o777 });
    vfs.chown('/home', 0, 0);
    vfs.chown('/tmp', 0, 0);
    return vfs;
  }

  /**
   * Normalises `path` to an absolute path: relative paths join `cwd` (default `/`), duplicate slashes collapse,
   * `.` and `..` resolve lexically and never climb above `/`, no trailing slash except for `/` itself.
   * Examples: `/a/../../b` → `/b`; `x//y/` with cwd `/home/sprite` → `/home/sprite/x/y`.
   */
  static normalize(path: string, cwd = '/'): string {
    const full = path.startsWith('/') ? path : `${cwd.startsWith('/') ? cwd : `/${cwd}`}/${path}`;
    const out: string[] = [];
    for (const part of full.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') out.pop();
      else out.push(part);
    }
    return toPath(out);
  }

  /** Stats `path`, following symlinks. Throws ENOENT, ENOTDIR (a file on the way), ELOOP (over 40 hops). */
  stat(path: string): VfsStat {
    const p = Vfs.normalize(path);
    return nodeStat(this.existing(p, true, 'stat'));
  }

  /** Stats `path` without following a final symlink (its `target` is reported). Errors as `stat`. */
  lstat(path: string): VfsStat {
    const p = Vfs.normalize(path);
    return nodeStat(this.existing(p, false, 'lstat'));
  }

  /** True when `path` exists after following symlinks (a dangling symlink is false). Never throws a VfsError. */
  exists(path: string): boolean {
    try {
      this.stat(path);
      return true;
    } catch (err) {
      if (err instanceof VfsError) return false;
      throw err;
    }
  }

  /**
   * The canonical absolute path of `path`, with every symlink resolved (POSIX realpath). Errors as `stat`.
   */
  realpath(path: string): string {
    const p = Vfs.normalize(path);
    const r = this.resolve(p, true, 'realpath');
    if (!r.node) throw new VfsError('ENOENT', p, 'realpath');
    return toPath(r.parts);
  }

  /**
   * A copy of the bytes of the file at `path` (following symlinks); mutating it changes nothing stored.
   * Throws ENOENT, EISDIR on a directory, ENOTDIR, ELOOP.
   */
  readFile(path: string): Uint8Array {
    const p = Vfs.normalize(path);
    const node = this.existing(p, true, 'open');
    if (node.kind === 'directory') throw new VfsError('EISDIR', p, 'read');
    return (node as FileNode).data.slice();
  }

  /**
   * Writes `data` (a string is UTF-8 encoded) to `path`, following a final symlink; creates the file (mode
   * `opts.mode` or 0644) or replaces its contents (mode changes only if `opts.mode` is given). `append` adds
   * to the end instead. `mkdirParents` creates missing parent directories (0755) first.
   * Throws ENOENT (parent missing and no `mkdirParents`), ENOTDIR (a file on the way), EISDIR (`path` is a
   * directory), ELOOP.
   * @see sprites-wire.md §8.2
   */
  writeFile(path: string, data: Uint8Array | string, opts: { mode?: number; mkdirParents?: boolean; append?: boolean } = {}): void {
    const p = Vfs.normalize(path);
    const bytes = toBytes(data);
    const now = this.now();
    let root = this.root;
    if (opts.mkdirParents && p !== '/') root = this.mkdirAll(root, Vfs.normalize(`${p}/..`), DEFAULT_DIR_MODE, now, 'open');
    const { parts, node } = this.resolveIn(root, p, true, 'open');
    if (node?.kind === 'directory') throw new VfsError('EISDIR', p, 'open');
    const existing = node as FileNode | undefined;
    const file: FileNode = Object.freeze({
      kind: 'file',
      mode: opts.mode !== undefined ? opts.mode & PERMISSION_BITS : existing?.mode ?? DEFAULT_FILE_MODE,
      uid: existing?.uid ?? SPRITE_UID,
      gid: existing?.gid ?? SPRITE_UID,
      mtimeMs: now,
      data: opts.append && existing ? concat(existing.data, bytes) : bytes,
    });
    this.root = putNode(root, parts, file, now, !existing);
  }

  /**
   * Creates the directory `path` (mode `opts.mode` or 0755). With `recursive`, creates missing ancestors too
   * and succeeds if the directory already exists (like `mkdir -p`).
   * Throws EEXIST (anything already there, unless recursive and it is a directory), ENOENT (parent missing,
   * not recursive), ENOTDIR (a file on the way), ELOOP.
   */
  mkdir(path: string, opts: { recursive?: boolean; mode?: number } = {}): void {
    const p = Vfs.normalize(path);
    const mode = (opts.mode ?? DEFAULT_DIR_MODE) & PERMISSION_BITS;
    const now = this.now();
    if (opts.recursive) {
      this.root = this.mkdirAll(this.root, p, mode, now, 'mkdir');
      return;
    }
    const { parts, node } = this.resolve(p, false, 'mkdir');
    if (node) throw new VfsError('EEXIST', p, 'mkdir');
    this.root = putNode(this.root, parts, makeDir({ mode, uid: SPRITE_UID, gid: SPRITE_UID, mtimeMs: now }), now, true);
  }

  /**
   * The entries of the directory at `path` (following symlinks), sorted by name (byte order); each entry's
   * `path` is `path` + `/` + name and its `stat` is as `lstat` gives it. Throws ENOENT, ENOTDIR, ELOOP.
   * @see sprites-wire.md §8.3
   */
  readdir(path: string): VfsEntry[] {
    const p = Vfs.normalize(path);
    const node = this.existing(p, true, 'scandir');
    if (node.kind !== 'directory') throw new VfsError('ENOTDIR', p, 'scandir');
    return sortedNames(node).map((name) => ({ name, path: joinPath(p, name), stat: nodeStat(node.children.get(name)!) }));
  }

  /**
   * Removes `path` (a final symlink is removed itself, not its target) and returns the removed absolute paths,
   * `path` first, then its descendants depth-first in name order. An empty directory is removed without
   * `recursive` (as Go's os.Remove does). `force` turns a missing `path` into `[]`.
   * Throws EINVAL for `/`, ENOENT, ENOTEMPTY (non-empty directory, not recursive), ENOTDIR, ELOOP.
   * @see sprites-wire.md §8.4
   */
  rm(path: string, opts: { recursive?: boolean; force?: boolean } = {}): string[] {
    const p = Vfs.normalize(path);
    if (p === '/') throw new VfsError('EINVAL', p, 'rm');
    let resolved: Resolved;
    try {
      resolved = this.resolve(p, false, 'rm');
    } catch (err) {
      if (opts.force && err instanceof VfsError && err.code === 'ENOENT') return [];
      throw err;
    }
    const { parts, node } = resolved;
    if (!node) {
      if (opts.force) return [];
      throw new VfsError('ENOENT', p, 'rm');
    }
    if (node.kind === 'directory' && node.children.size > 0 && !opts.recursive) throw new VfsError('ENOTEMPTY', p, 'rm');
    const deleted: string[] = [];
    walk(node, p, (at) => deleted.push(at));
    this.root = putNode(this.root, parts, undefined, this.now(), true);
    return deleted;
  }

  /**
   * Moves `src` to `dest` (POSIX rename: neither final symlink is followed; the moved node keeps its mtime).
   * An existing `dest` is replaced when both are non-directories, or both are directories and `dest` is empty.
   * Renaming a path onto itself does nothing.
   * Throws ENOENT (`src` or `dest`'s parent missing), EINVAL (`/`, or a directory into itself), EISDIR
   * (file onto a directory), ENOTDIR (directory onto a file, or a file on the way), ENOTEMPTY, ELOOP.
   * @see sprites-wire.md §8.5
   */
  rename(src: string, dest: string): void {
    const s = Vfs.normalize(src);
    const d = Vfs.normalize(dest);
    if (s === '/' || d === '/') throw new VfsError('EINVAL', s === '/' ? s : d, 'rename');
    const from = this.resolve(s, false, 'rename');
    if (!from.node) throw new VfsError('ENOENT', s, 'rename');
    const to = this.resolve(d, false, 'rename');
    if (toPath(from.parts) === toPath(to.parts)) return;
    if (from.node.kind === 'directory' && isInside(to.parts, from.parts)) throw new VfsError('EINVAL', d, 'rename');
    if (to.node) {
      const srcIsDir = from.node.kind === 'directory';
      const destIsDir = to.node.kind === 'directory';
      if (srcIsDir && !destIsDir) throw new VfsError('ENOTDIR', d, 'rename');
      if (!srcIsDir && destIsDir) throw new VfsError('EISDIR', d, 'rename');
      if (destIsDir && (to.node as DirNode).children.size > 0) throw new VfsError('ENOTEMPTY', d, 'rename');
    }
    const now = this.now();
    const without = putNode(this.root, from.parts, undefined, now, true);
    this.root = putNode(without, to.parts, from.node, now, true);
  }

  /**
   * Copies `src` to exactly `dest` (not into it: callers that want `cp a dir/` semantics join the basename
   * themselves) and returns every copied pair, top first then depth-first in name order. The top `src` is
   * followed if it is a symlink; symlinks inside a copied directory are copied as symlinks. Copying onto an
   * existing directory merges into it, overwriting files. Copies get mode of the source, the sprite user as
   * owner and a fresh mtime, unless `preserveAttrs` keeps owner and mtime too. File contents are shared, not
   * duplicated (they are immutable).
   * Throws ENOENT, EISDIR (a directory without `recursive`, or a file onto a directory), ENOTDIR (a directory
   * onto a file), EINVAL (`dest` is `src` or inside it), ELOOP.
   * @see sprites-wire.md §8.6
   */
  copy(src: string, dest: string, opts: { recursive?: boolean; preserveAttrs?: boolean } = {}): Array<{ source: string; dest: string }> {
    const s = Vfs.normalize(src);
    const d = Vfs.normalize(dest);
    const from = this.resolve(s, true, 'copyfile');
    if (!from.node) throw new VfsError('ENOENT', s, 'copyfile');
    if (from.node.kind === 'directory' && !opts.recursive) throw new VfsError('EISDIR', s, 'copyfile');
    const to = this.resolve(d, true, 'copyfile');
    if (isInside(to.parts, from.parts)) throw new VfsError('EINVAL', d, 'copyfile');
    const now = this.now();
    const copied: Array<{ source: string; dest: string }> = [];
    const meta = (n: VfsNode): NodeMeta =>
      opts.preserveAttrs ? n : { mode: n.mode, uid: SPRITE_UID, gid: SPRITE_UID, mtimeMs: now };
    const build = (node: VfsNode, existing: VfsNode | undefined, sp: string, dp: string): VfsNode => {
      copied.push({ source: sp, dest: dp });
      if (node.kind !== 'directory') {
        if (existing?.kind === 'directory') throw new VfsError('EISDIR', dp, 'copyfile');
        return Object.freeze({ ...node, ...meta(node) });
      }
      if (existing && existing.kind !== 'directory') throw new VfsError('ENOTDIR', dp, 'copyfile');
      let children = existing ? existing.children : ImmMap<string, VfsNode>();
      for (const name of sortedNames(node)) {
        const child = build(node.children.get(name)!, children.get(name), joinPath(sp, name), joinPath(dp, name));
        children = children.set(name, child);
      }
      return makeDir(existing ? { ...existing, mtimeMs: now } : meta(node), children);
    };
    const built = build(from.node, to.node, s, d);
    this.root = putNode(this.root, to.parts, built, now, !to.node);
    return copied;
  }

  /**
   * Sets the permission bits of `path` (following symlinks) to `mode & 0o7777`; with `recursive`, of every node
   * below it too (symlinks inside are skipped). Returns the changed paths, top first. mtimes do not change.
   * Throws ENOENT, ENOTDIR, ELOOP.
   * @see sprites-wire.md §8.7
   */
  chmod(path: string, mode: number, opts: { recursive?: boolean } = {}): Array<{ path: string; mode: number }> {
    const m = mode & PERMISSION_BITS;
    return this.updateMeta(path, 'chmod', opts.recursive, () => ({ mode: m })).map((at) => ({ path: at, mode: m }));
  }

  /**
   * Sets the owner of `path` (following symlinks); `-1` leaves that id unchanged (POSIX chown). With
   * `recursive`, every node below it too (symlinks inside are skipped). Returns the changed paths with the
   * resulting ids, top first. Throws ENOENT, ENOTDIR, ELOOP.
   * @see sprites-wire.md §8.8
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
   * the link's directory when followed). Throws EEXIST (anything at `linkPath`, even a dangling symlink),
   * ENOENT (parent missing, or an empty target), ENOTDIR, ELOOP.
   */
  symlink(target: string, linkPath: string): void {
    const p = Vfs.normalize(linkPath);
    if (target === '') throw new VfsError('ENOENT', p, 'symlink');
    const { parts, node } = this.resolve(p, false, 'symlink');
    if (node) throw new VfsError('EEXIST', p, 'symlink');
    const now = this.now();
    const link: SymlinkNode = Object.freeze({ kind: 'symlink', target, mode: SYMLINK_MODE, uid: SPRITE_UID, gid: SPRITE_UID, mtimeMs: now });
    this.root = putNode(this.root, parts, link, now, true);
  }

  /** The stored target of the symlink at `path`. Throws ENOENT, EINVAL (not a symlink), ENOTDIR, ELOOP. */
  readlink(path: string): string {
    const p = Vfs.normalize(path);
    const node = this.existing(p, false, 'readlink');
    if (node.kind !== 'symlink') throw new VfsError('EINVAL', p, 'readlink');
    return node.target;
  }

  /** Sets the mtime (epoch ms) of `path`, following symlinks. Throws ENOENT, ENOTDIR, ELOOP. */
  utimes(path: string, mtimeMs: number): void {
    const p = Vfs.normalize(path);
    const { parts, node } = this.resolve(p, true, 'utime');
    if (!node) throw new VfsError('ENOENT', p, 'utime');
    this.root = putNode(this.root, parts, Object.freeze({ ...node, mtimeMs }), this.now(), false);
  }

  /** Every path in the tree (directories included, `/` excluded), depth-first in name order. O(n). */
  allPaths(): string[] {
    const out: string[] = [];
    walk(this.root, '/', (at) => out.push(at));
    return out.slice(1);
  }

  /**
   * The current tree as an immutable snapshot, O(1): later writes build new nodes and never touch it.
   * @see sprites-wire.md §7.1, §7.7
   */
  snapshot(): VfsSnapshot {
    return this.root as unknown as VfsSnapshot;
  }

  /** Makes `snapshot` the current tree, O(1). Writes afterwards leave the snapshot unchanged. @see sprites-wire.md §7.5 */
  restore(snapshot: VfsSnapshot): void {
    this.root = Vfs.unwrap(snapshot);
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
   * the tree. With `recursive: false` only `path` and its direct children are compared.
   * A rename shows as `remove` of the old path and `create` of the new one.
   */
  static diff(before: VfsSnapshot, after: VfsSnapshot, path = '/', opts: { recursive?: boolean } = {}): VfsChange[] {
    const parts = Vfs.normalize(path).split('/').filter(Boolean);
    const at = (root: DirNode): VfsNode | undefined => {
      let node: VfsNode | undefined = root;
      for (const part of parts) node = node?.kind === 'directory' ? node.children.get(part) : undefined;
      return node;
    };
    const out: VfsChange[] = [];
    diffNodes(at(Vfs.unwrap(before)), at(Vfs.unwrap(after)), Vfs.normalize(path), opts.recursive ?? true ? Infinity : 1, out);
    return out;
  }

  /** Sum of the sizes of all regular files, in bytes. O(1) (kept as an aggregate in every directory). */
  totalBytes(): number {
    return this.root.bytes;
  }

  /** Number of regular files in the tree. O(1). */
  fileCount(): number {
    return this.root.files;
  }

  private static unwrap(snapshot: VfsSnapshot): DirNode {
    const root = snapshot as unknown as DirNode;
    if (root?.kind !== 'directory' || !ImmMap.isMap(root.children)) throw new TypeError('not a VfsSnapshot');
    return root;
  }

  /** Resolves against the current root and insists the node exists (ENOENT otherwise). */
  private existing(p: string, followLast: boolean, syscall: string): VfsNode {
    const { node } = this.resolve(p, followLast, syscall);
    if (!node) throw new VfsError('ENOENT', p, syscall);
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
    const queue = p.split('/').filter((c) => c !== '');
    const parts: string[] = [];
    const dirs: DirNode[] = [root]; // dirs[i] is the directory at parts[0..i)
    let hops = 0;
    while (queue.length > 0) {
      const name = queue.shift()!;
      if (name === '.') continue;
      if (name === '..') {
        if (parts.length > 0) {
          parts.pop();
          dirs.pop();
        }
        continue;
      }
      const dir = dirs[dirs.length - 1]!;
      const child = dir.children.get(name);
      const last = queue.length === 0;
      if (!child) {
        if (last) return { parts: [...parts, name], node: undefined };
        throw new VfsError('ENOENT', p, syscall);
      }
      if (child.kind === 'symlink' && (!last || followLast)) {
        if (++hops > MAX_SYMLINK_HOPS) throw new VfsError('ELOOP', p, syscall);
        if (child.target.startsWith('/')) {
          parts.length = 0;
          dirs.length = 1;
        }
        queue.unshift(...child.target.split('/').filter((c) => c !== ''));
        continue;
      }
      if (last) return { parts: [...parts, name], node: child };
      if (child.kind !== 'directory') throw new VfsError('ENOTDIR', p, syscall);
      parts.push(name);
      dirs.push(child);
    }
    return { parts, node: dirs[dirs.length - 1] };
  }

  /** `mkdir -p` on a draft root: creates each missing component of `p` with `mode`, returns the new root. */
  private mkdirAll(root: DirNode, p: string, mode: number, now: number, syscall: string): DirNode {
    const comps = p.split('/').filter((c) => c !== '');
    for (let i = 1; i <= comps.length; i++) {
      const prefix = toPath(comps.slice(0, i));
      const { parts, node } = this.resolveIn(root, prefix, true, syscall);
      if (node?.kind === 'directory') continue;
      if (node) throw new VfsError(i === comps.length && syscall === 'mkdir' ? 'EEXIST' : 'ENOTDIR', p, syscall);
      root = putNode(root, parts, makeDir({ mode, uid: SPRITE_UID, gid: SPRITE_UID, mtimeMs: now }), now, true);
    }
    return root;
  }

  /** Rebuilds `path` (and with `recursive` its subtree, skipping nested symlinks) with `change` applied. */
  private updateMeta(
    path: string,
    syscall: string,
    recursive: boolean | undefined,
    change: (node: VfsNode, at: string) => Partial<NodeMeta>,
  ): string[] {
    const p = Vfs.normalize(path);
    const { parts, node } = this.resolve(p, true, syscall);
    if (!node) throw new VfsError('ENOENT', p, syscall);
    const changed: string[] = [];
    const rebuild = (n: VfsNode, at: string): VfsNode => {
      changed.push(at);
      const meta = change(n, at);
      if (n.kind !== 'directory' || !recursive) return Object.freeze({ ...n, ...meta });
      let children = n.children;
      for (const name of sortedNames(n)) {
        const child = n.children.get(name)!;
        if (child.kind !== 'symlink') children = children.set(name, rebuild(child, joinPath(at, name)));
      }
      return Object.freeze({ ...n, ...meta, children });
    };
    this.root = putNode(this.root, parts, rebuild(node, p), this.now(), false);
    return changed;
  }
}

/** Calls `visit` for `node` at `at`, then for its descendants depth-first in name order. */
function walk(node: VfsNode, at: string, visit: (at: string) => void): void {
  visit(at);
  if (node.kind !== 'directory') return;
  for (const name of sortedNames(node)) walk(node.children.get(name)!, joinPath(at, name), visit);
}
