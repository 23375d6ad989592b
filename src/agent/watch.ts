/**
 * File change notifications for the agent: one non-recursive `fs.watch` (inotify) per watched directory, with a
 * cache of what each entry looked like, so that every raw event is classified as the in-memory VFS reports it
 * (`create`, `write`, `remove`, `chmod`, with `isDir` and `size`) and batched per tick. A missing watched path is
 * waited for (its nearest existing ancestor is watched until it appears). It owns no framing (the session sends
 * the batches). Node's own `recursive` option is not used: on Linux it keeps one watcher per file.
 * @see src/server/machines/memory/vfs.ts `VfsChange`, docs/wire-reference.md §6.3
 */
import { watch as fsWatch, type FSWatcher, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';

/** One change, in the `VfsChange` shape (path in the sprite's view; size 0 for removals and directories). */
export interface ChangeJson {
  path: string;
  event: 'create' | 'write' | 'remove' | 'chmod';
  isDir: boolean;
  size: number;
}

interface Known {
  isDir: boolean;
  isLink: boolean;
  size: number;
  mtimeMs: number;
  mode: number;
  uid: number;
  gid: number;
  ino: number;
}

function knownOf(st: Stats): Known {
  return {
    isDir: st.isDirectory(),
    isLink: st.isSymbolicLink(),
    size: st.size,
    mtimeMs: st.mtimeMs,
    mode: st.mode,
    uid: st.uid,
    gid: st.gid,
    ino: st.ino,
  };
}

/** Pseudo filesystems and the agent's own mounts: never descended into by a recursive watch (a watch of `/`). */
const NOT_WATCHED = new Set(['/proc', '/sys', '/dev', '/.sprite']);

function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

function isAtOrBelow(path: string, top: string): boolean {
  return path === top || top === '/' || path.startsWith(`${top}/`);
}

/**
 * Watches sprite path `path` (recursive, or the path and its direct children) until `close()`. `toHost` maps a
 * sprite path to the agent's view. `emit` gets each non-empty batch; it must not throw.
 */
export class TreeWatcher {
  private readonly known = new Map<string, Known>();
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly dirty = new Set<string>();
  private readonly out: ChangeJson[] = [];
  private flushScheduled = false;
  private closed = false;
  /** While the path is missing: the ancestor being watched for it to appear. */
  private waitingOn: string | undefined;

  constructor(
    private readonly path: string,
    private readonly recursive: boolean,
    private readonly toHost: (p: string) => string,
    private readonly emit: (changes: ChangeJson[]) => void,
  ) {}

  /** Arms the watch; resolves once the initial scan is done (changes after that are reported). */
  async start(): Promise<void> {
    await this.arm(false);
  }

  /** Stops every watcher; no batch is emitted afterwards. */
  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  private async lstat(p: string): Promise<Stats | undefined> {
    return fsp.lstat(this.toHost(p)).catch(() => undefined);
  }

  /** Watches the path if it exists, else its nearest existing ancestor. `report` emits `create` for what is found. */
  private async arm(report: boolean): Promise<void> {
    const st = await this.lstat(this.path);
    if (this.closed) return;
    if (!st) {
      let at = this.path;
      let found: Stats | undefined;
      while (at !== '/' && !found?.isDirectory()) {
        at = at.slice(0, at.lastIndexOf('/')) || '/';
        found = await this.lstat(at);
      }
      this.waitingOn = at;
      this.watchDir(at);
      return;
    }
    this.waitingOn = undefined;
    if (report) this.record(this.path, 'create', knownOf(st));
    this.known.set(this.path, knownOf(st));
    if (st.isDirectory()) {
      this.watchDir(this.path);
      await this.scan(this.path, report, 1);
    } else {
      const parent = this.path.slice(0, this.path.lastIndexOf('/')) || '/';
      this.watchDir(parent);
    }
  }

  /** Records every entry below directory `dir` (to the depth the watch covers), watching subdirectories. */
  private async scan(dir: string, report: boolean, depth: number): Promise<void> {
    let names: string[];
    try {
      names = await fsp.readdir(this.toHost(dir));
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (this.closed) return;
      const at = joinPath(dir, name);
      if (this.known.has(at)) continue;
      const st = await this.lstat(at);
      if (!st) continue;
      const k = knownOf(st);
      this.known.set(at, k);
      if (report) this.record(at, 'create', k);
      if (k.isDir && this.recursive && !NOT_WATCHED.has(at)) {
        this.watchDir(at);
        await this.scan(at, report, depth + 1);
      }
    }
  }

  private watchDir(dir: string): void {
    if (this.watchers.has(dir) || this.closed) return;
    try {
      const w = fsWatch(this.toHost(dir), { persistent: false }, (_event, name) => {
        if (name === null || name === undefined) return this.markTree(dir);
        this.mark(joinPath(dir, String(name)));
      });
      w.on('error', () => this.unwatch(dir));
      this.watchers.set(dir, w);
    } catch {
      // gone already: its removal is reported through the parent's watcher
    }
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  private markTree(dir: string): void {
    for (const p of this.known.keys()) if (isAtOrBelow(p, dir)) this.mark(p);
  }

  private mark(p: string): void {
    if (this.closed) return;
    this.dirty.add(p);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => void this.flush().catch(() => undefined));
    }
  }

  private record(path: string, event: ChangeJson['event'], k: Known): void {
    this.out.push({ path, event, isDir: k.isDir, size: event === 'remove' || k.isDir ? 0 : k.size });
  }

  /** Classifies every dirty path against the cache and emits one batch. */
  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const paths = [...this.dirty].sort();
    this.dirty.clear();
    if (this.waitingOn !== undefined) {
      // Something changed next to where the path will appear: try again.
      await this.arm(true);
    } else {
      for (const p of paths) await this.classify(p);
    }
    if (this.closed || this.out.length === 0) return;
    const batch = this.out.splice(0);
    this.emit(batch);
  }

  private covers(p: string): boolean {
    if (!isAtOrBelow(p, this.path)) return false;
    if (this.recursive || p === this.path) return true;
    return p.slice(0, p.lastIndexOf('/')) === this.path || (this.path === '/' && p.lastIndexOf('/') === 0);
  }

  private async classify(p: string): Promise<void> {
    if (!this.covers(p)) return;
    const before = this.known.get(p);
    const st = await this.lstat(p);
    if (this.closed) return;
    if (!st) {
      if (!before) return;
      this.removeTree(p);
      if (p === this.path) {
        this.close();
        this.closed = false;
        await this.arm(false);
      }
      return;
    }
    const now = knownOf(st);
    if (before && (before.isDir !== now.isDir || before.isLink !== now.isLink || before.ino !== now.ino)) {
      this.removeTree(p);
      return this.created(p, now);
    }
    if (!before) return this.created(p, now);
    this.known.set(p, now);
    if (!now.isDir && (now.size !== before.size || now.mtimeMs !== before.mtimeMs)) this.record(p, 'write', now);
    else if (now.mode !== before.mode || now.uid !== before.uid || now.gid !== before.gid) this.record(p, 'chmod', now);
    else if (!now.isDir && !now.isLink) this.record(p, 'write', now); // rewritten with the same size in the same instant
  }

  private async created(p: string, k: Known): Promise<void> {
    this.known.set(p, k);
    this.record(p, 'create', k);
    if (k.isDir && (this.recursive || p === this.path) && !NOT_WATCHED.has(p)) {
      this.watchDir(p);
      // Entries made before the watcher existed are reported now.
      await this.scan(p, true, 1);
    }
  }

  /** Reports `p` and every cached path below it as removed (deepest last, as the VFS does: top first). */
  private removeTree(p: string): void {
    const gone = [...this.known.keys()].filter((k) => isAtOrBelow(k, p)).sort();
    for (const k of gone) {
      this.record(k, 'remove', this.known.get(k)!);
      this.known.delete(k);
      if (this.watchers.has(k)) this.unwatch(k);
    }
  }
}
