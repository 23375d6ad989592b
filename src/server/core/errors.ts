/**
 * Typed model errors. The model knows no HTTP: it throws `ModelError` with a `kind`, and one table in
 * `src/server/http/errors.ts` maps each kind to a status and the envelope of its family (docs/wire-reference.md §2.4).
 * Filesystem errors are `VfsError` (src/server/machines/memory/vfs.ts) and carry a POSIX code and a path instead.
 */

/** Every error kind the model can raise. */
export type ModelErrorKind =
  | 'sprite_not_found'
  | 'sprite_exists'
  | 'checkpoint_not_found'
  | 'checkpoint_current'
  | 'session_not_found'
  | 'session_exited'
  | 'service_not_found'
  | 'service_conflict'
  | 'service_not_running'
  | 'service_invalid'
  | 'task_not_found'
  | 'task_exists'
  | 'invalid'
  | 'invalid_sprite_name'
  | 'invalid_request'
  | 'rate_limited'
  /** The sprite's machine cannot boot (a saved sprite whose disk no longer boots): restore or delete it. */
  | 'sprite_unavailable'
  /** The sprite's agent did not answer a call within its deadline (`--agent-timeout`): the call failed, the sprite stays. */
  | 'sprite_timeout'
  /**
   * A checkpoint would take the sprite past its disk quota (`--disk-quota`): where a checkpoint is a copy of what the
   * sprite wrote (the container engine's image commit), what its checkpoints hold counts against the quota.
   */
  | 'checkpoint_no_space'
  /**
   * The sprite's engine keeps no checkpoints (the container engine on Kubernetes: its API cannot commit a container's
   * disk): a checkpoint or restore is refused, naming the runtimes that have them.
   */
  | 'checkpoints_unavailable';

/** An error from the model, mapped to HTTP by kind. `details` are extra envelope fields (integers only). */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
