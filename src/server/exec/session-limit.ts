/**
 * The per-sprite cap on exec sessions: how many commands started through exec (WebSocket or
 * HTTP) one sprite may have running at once. It owns the check and its error; it does not start, count or end
 * sessions (model/sessions.ts does), and attaching to a running session is never limited.
 * @see docs/limits.md ("exec sessions per sprite", `--max-sessions`)
 */
import { ModelError } from '../core/errors.ts';
import type { SessionRegistry } from '../model/sessions.ts';

/** Seconds a refused client is told to wait (`Retry-After`); a session may end at any moment. */
export const SESSION_LIMIT_RETRY_SECONDS = 1;

/**
 * Throws ModelError `rate_limited` (429, JSON `{"error":"concurrent_session_limit_exceeded","message":…,
 * "limit":N,"current_count":N,"retry_after_seconds":1}` and `Retry-After: 1`) when `sessions` already holds
 * `max` live sessions, so a new command is refused before anything starts: a WebSocket exec before the upgrade,
 * an HTTP exec before its headers. The error code follows the shape of the real service's structured rate-limit
 * errors (`concurrent_sprite_limit_exceeded`, docs/wire-reference.md §2.4); the real session limit is unknown.
 * `current_count` counts the running commands and those that passed this check and are about to start
 * (`SessionRegistry.reserve`), so handshakes asked for at the same moment cannot all pass.
 * @deviation real Sprites' limit on concurrent sessions (if any) is unknown; spritzer's is its own (docs/fidelity.md).
 */
export function checkSessionLimit(sessions: Pick<SessionRegistry, 'count'>, max: number): void {
  const current = sessions.count;
  if (current < max) return;
  throw new ModelError('rate_limited', `too many exec sessions: at most ${max} running per sprite (--max-sessions); wait for one to end`, {
    error: 'concurrent_session_limit_exceeded',
    limit: max,
    current_count: current,
    retry_after_seconds: SESSION_LIMIT_RETRY_SECONDS,
  });
}
