/**
 * `--data-dir` at start: claims the directory (one spritzer per dir, the lock of machines/sandbox/data-dir.ts) and
 * opens its store, turning every failure into one line for the user that names the path. Runs before the engine
 * opens: the sandbox engine keeps its sprites' disks in the same dir (docs/fidelity.md "Persistence").
 */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import { claimDataDir, type DataDirClaim } from '../machines/sandbox/data-dir.ts';
import { DataDirError } from './db.ts';
import { DataDirStore } from './store.ts';

/** A start-up failure whose message is meant for the user as is (`spritzer: <message>`, exit 1). */
export class StartupError extends Error {}

/** An opened data dir: its store, and `release()` to drop the lock (after `store.close()`). */
export interface OpenedDataDir {
  store: DataDirStore;
  claim: DataDirClaim;
}

/**
 * Claims `dir` (creating it) and opens its store. Throws `StartupError` with a one-line message: the dir is in use
 * by another live spritzer (its pid), cannot be created or written (the fs error, which names the path), holds a
 * database of another schema version, or is not a spritzer database.
 */
export async function openDataDir(dir: string, deps: { clock: Clock; logger: Logger }): Promise<OpenedDataDir> {
  let claim: DataDirClaim;
  try {
    claim = await claimDataDir(dir);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new StartupError(err.code ? `cannot use --data-dir ${dir}: ${err.message}` : err.message);
  }
  try {
    return { store: DataDirStore.open({ dir: claim.dir, clock: deps.clock, logger: deps.logger }), claim };
  } catch (e) {
    await claim.release();
    if (e instanceof DataDirError) throw new StartupError(e.message);
    throw new StartupError(`cannot use --data-dir ${dir}: ${(e as Error).message}`);
  }
}

/**
 * The one line for an error of `listen` on `host:port`, e.g. `127.0.0.1:4290 is already in use; pass --addr`:
 * a user who starts a second server sees what to change, not a stack trace.
 */
export function listenErrorMessage(err: NodeJS.ErrnoException, host: string, port: number): string {
  const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (err.code) {
    case 'EADDRINUSE':
      return `${at} is already in use; pass --addr`;
    case 'EACCES':
      return `${at}: permission denied (ports below 1024 need privileges); pass --addr`;
    case 'EADDRNOTAVAIL':
      return `${at}: no such address on this machine; pass --addr`;
    default:
      return `cannot listen on ${at}: ${err.message}`;
  }
}
