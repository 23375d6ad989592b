/**
 * How long spritzer waits for a sprite's agent. The agent runs inside the sprite, where a process can stop it
 * (`kill -STOP`) or keep it busy, so every call the host makes to it has a deadline, and a command the host asked it
 * to start or to KILL has one for the agent's acknowledgement. This module owns the deadlines per call kind and the
 * errors a missed one gives; AgentClient arms them. @see docs/limits.md "agent call deadline"
 */
import { ModelError } from '../../core/errors.ts';
import { VfsError } from '../port.ts';
import type { CallJson } from '../../../protocol/agent.ts';

export { DEFAULT_AGENT_TIMEOUT_MS } from '../../config/agent-timeout.ts';

/** Calls that move a file's bytes or walk a tree get this many times the deadline (a 1 GiB read, `rm -r` of a big tree). */
export const BULK_CALL_FACTOR = 10;

/**
 * The deadline (ms) of `req` given the configured per-call one, `timeoutMs`: `BULK_CALL_FACTOR` × it for the calls
 * whose work grows with the data (file reads and writes, copies, removals, recursive listings and changes, the disk
 * usage walk, killing every process), `timeoutMs` for every other call.
 */
export function callDeadlineMs(req: CallJson, timeoutMs: number): number {
  switch (req.op) {
    case 'readFile':
    case 'writeFile':
    case 'copy':
    case 'rm':
    case 'usage':
    case 'killAll':
      return timeoutMs * BULK_CALL_FACTOR;
    case 'readdir':
    case 'chmod':
    case 'chown':
      return req.recursive ? timeoutMs * BULK_CALL_FACTOR : timeoutMs;
    default:
      return timeoutMs;
  }
}

/** The sprite path an fs call is about (its `path`, or the `source` of a rename or copy), or undefined. */
export function callPath(req: CallJson): string | undefined {
  if ('path' in req && typeof req.path === 'string') return req.path;
  if ('source' in req && typeof req.source === 'string') return req.source;
  return undefined;
}

/** The words every missed deadline uses. */
export function notAnsweredText(ms: number): string {
  return `the sprite's agent did not answer within ${ms} ms (--agent-timeout)`;
}

/**
 * The error of a call whose deadline (`ms`) passed: for an fs call a `VfsError` ETIMEDOUT about its path (the fs
 * API's 504 `{error, code: "ETIMEDOUT", path}`), else ModelError `sprite_timeout` (504 `{error, message}`).
 */
export function callTimeoutError(req: CallJson, ms: number, fsOp: boolean): Error {
  const path = callPath(req);
  if (fsOp && path !== undefined) {
    const err = new VfsError('ETIMEDOUT', path, req.op);
    err.message = `ETIMEDOUT: ${notAnsweredText(ms)}, ${req.op} '${path}'`;
    return err;
  }
  return new ModelError('sprite_timeout', `${notAnsweredText(ms)} (${req.op})`);
}

/** Whether `err` is the error of a missed call deadline (`callTimeoutError`). */
export function isCallTimeout(err: unknown): boolean {
  return (err instanceof ModelError && err.kind === 'sprite_timeout') || (err instanceof VfsError && err.code === 'ETIMEDOUT');
}
