/**
 * The bounds of one fs/watch socket: which paths a `subscribe` may name (checked, normalised, deduplicated,
 * capped) and how many bytes of events may wait for a slow client before the watcher is dropped. It owns neither
 * the socket's protocol (fs-watch.ts) nor change detection (the machine).
 * @see docs/limits.md, spec/asyncapi.yaml (`fsWatch`, `x-close-codes` 1008 and 1013)
 */
import type { WebSocket } from 'ws';
import { CloseCode, ProtocolError } from '../../protocol/close-codes.ts';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';
import { checkPath } from '../machines/port.ts';
import { normalizePath, VfsError } from '../machines/port.ts';

/** The limits this module applies. */
export type WatchLimits = Pick<Limits, 'watchPathsMax' | 'watchBufferedBytes' | 'pathMaxBytes' | 'nameMaxBytes'>;

/**
 * The absolute paths to watch for a subscribe's `paths` (relative ones resolve against `workingDir`, default
 * `/`): normalised, each once in first-seen order, and with `recursive` without the paths inside another listed
 * path (`/` covers everything). Throws ProtocolError 1008 when there are more than `watchPathsMax` (1024) distinct
 * strings in `paths`, or a path or `workingDir` fails `checkPath` (ENAMETOOLONG, EINVAL). Cost: linear in the
 * size of `paths` plus a sort of the distinct ones, whatever the duplicates.
 * @see docs/wire-reference.md §6.3 (`subscribe`: `paths`, `recursive`, `workingDir`)
 */
export function watchPaths(paths: readonly string[], workingDir: string | undefined, recursive: boolean, limits: WatchLimits = DEFAULT_LIMITS): string[] {
  const distinct = new Set<string>();
  for (const p of paths) {
    distinct.add(p);
    if (distinct.size > limits.watchPathsMax) {
      throw new ProtocolError(CloseCode.PolicyViolation, `too many paths: at most ${limits.watchPathsMax} per subscribe`);
    }
  }
  const resolved = new Set<string>();
  try {
    if (workingDir !== undefined) checkPath(workingDir, 'watch', limits);
    const cwd = normalizePath(workingDir ?? '/');
    for (const p of distinct) {
      checkPath(p, 'watch', limits);
      const abs = normalizePath(p, cwd);
      checkPath(abs, 'watch', limits);
      resolved.add(abs);
    }
  } catch (err) {
    if (err instanceof VfsError) throw new ProtocolError(CloseCode.PolicyViolation, `invalid path: ${err.code}`);
    throw err;
  }
  if (!recursive) return [...resolved];
  // Sorting with '/' lowest puts every path's descendants right after it, so one pass finds the covered ones.
  const sorted = [...resolved].map((p) => ({ p, key: p.replaceAll('/', '\0') }));
  sorted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const covered = new Set<string>();
  let top: string | undefined;
  for (const { p } of sorted) {
    if (top !== undefined && (top === '/' || p.startsWith(`${top}/`))) covered.add(p);
    else top = p;
  }
  return [...resolved].filter((p) => !covered.has(p));
}

/**
 * A sender for one watch socket that bounds its backlog: each text goes out while the socket is open; once more
 * than `watchBufferedBytes` (8 MiB) wait in the socket (`ws.bufferedAmount`: not yet handed to the kernel), the
 * watcher is dropped — `onDrop` runs (stop watching) and the socket closes with 1013 — and every later call
 * returns false. The server's memory for a client that stops reading is thus bounded by the cap plus one
 * message.
 * @see spec/asyncapi.yaml `x-close-codes` 1013
 */
export function boundedSender(ws: WebSocket, onDrop: () => void, limits: Pick<Limits, 'watchBufferedBytes'> = DEFAULT_LIMITS): (text: string) => boolean {
  let dropped = false;
  return (text) => {
    if (dropped || ws.readyState !== ws.OPEN) return false;
    ws.send(text);
    if (ws.bufferedAmount <= limits.watchBufferedBytes) return true;
    dropped = true;
    onDrop();
    ws.close(CloseCode.TryAgainLater, `watcher too slow: more than ${limits.watchBufferedBytes} bytes of events waiting`);
    return false;
  };
}
