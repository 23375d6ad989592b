/**
 * The content-addressed blob store of a data directory: file contents by SHA-256 under `blobs/ab/abcdef…`, so the
 * live tree and every checkpoint share one copy of each distinct content. It owns the blob files only; which
 * blobs are referenced is the metadata database's business (store.ts collects the garbage).
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Blobs under one directory. Every method is synchronous (it runs inside the mutation that needs it). */
export class BlobStore {
  private tmpSeq = 0;

  /** `dir` is created if missing, and made 0700 (the blobs are the sprites' files; files are written 0600). */
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }

  /** The SHA-256 (hex, 64 chars) of `data`. */
  static hash(data: Uint8Array): string {
    return createHash('sha256').update(data).digest('hex');
  }

  /**
   * Stores `data` and returns its hash. Written to a temporary name first and renamed, so a crash never leaves a
   * blob with the right name and the wrong bytes. Durable against a process crash (the page cache survives a
   * `kill -9`); not fsynced. @deviation an OS crash may lose the last writes.
   */
  put(data: Uint8Array): string {
    const hash = BlobStore.hash(data);
    const path = this.pathOf(hash);
    if (existsSync(path)) return hash;
    mkdirSync(join(this.dir, hash.slice(0, 2)), { recursive: true, mode: 0o700 });
    const tmp = `${path}.tmp-${process.pid}-${this.tmpSeq++}`;
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
    return hash;
  }

  /** The bytes of blob `hash`; throws (ENOENT) when it is missing, which means the data dir was damaged. */
  get(hash: string): Uint8Array {
    return new Uint8Array(readFileSync(this.pathOf(hash)));
  }

  /** Deletes every blob (and stray temporary file) whose hash is not in `keep`; returns how many were deleted. */
  collect(keep: ReadonlySet<string>): number {
    let n = 0;
    for (const fan of readdirSync(this.dir)) {
      if (!/^[0-9a-f]{2}$/.test(fan)) continue;
      for (const name of readdirSync(join(this.dir, fan))) {
        if (keep.has(name)) continue;
        rmSync(join(this.dir, fan, name), { force: true });
        n += 1;
      }
    }
    return n;
  }

  private pathOf(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash);
  }
}
