/**
 * The tasks of one sprite (the Tasks API of the in-sprite management API): named leases that keep the sprite
 * active until they expire. Owns the registry and its expiry timers on the injected clock; it knows no HTTP
 * and does not decide the sprite's status (the sprite asks `busy()`).
 * @see docs/wire-reference.md §12 (Tasks API)
 */
import type { Clock, TimerHandle } from '../core/clock.ts';
import { parseDuration } from '../core/duration.ts';
import { ModelError } from '../core/errors.ts';

/** Longest lease a task may ask for (§12: "maximum 1 h"). */
export const MAX_TASK_EXPIRE_MS = 3_600_000;

/** A live task; times are epoch milliseconds. */
export interface Task {
  name: string;
  startedAt: number;
  expiresAt: number;
}

/** Dependencies of a `TaskRegistry`. */
export interface TaskRegistryDeps {
  clock: Clock;
  /** Called after any change of the set of live tasks (create, refresh, delete, expiry, clear). */
  onChange?: () => void;
}

/**
 * Live tasks one sprite may hold; creating one more is refused (400). The in-sprite API lets a sprite's code create
 * tasks, and each is kept in spritzer's memory and its data dir: without a bound, a sprite could fill both.
 */
export const TASKS_MAX = 256;

/** Longest task name, in UTF-16 code units (the spec's `maxLength`); longer is refused (400). */
export const TASK_NAME_MAX_LENGTH = 256;

/** `expire` as clients send it: a duration string (`"1h"`, `"30m"`) or integer seconds. */
export type TaskExpire = string | number;

/**
 * The tasks of one sprite. A task vanishes at its `expiresAt` (a clock timer), as if deleted.
 * Shaped as a sprite addon (`busy`, `shutdown`).
 */
export class TaskRegistry {
  private readonly tasks = new Map<string, { task: Task; timer: TimerHandle }>();

  constructor(private readonly deps: TaskRegistryDeps) {}

  /**
   * Creates a task leased for `expire` from now.
   * @throws ModelError `task_exists` (409) while a task of that name is live; `invalid` for an empty name or a bad
   *   `expire` (see `parseExpire`).
   * @see docs/wire-reference.md §12 (`POST /v1/tasks` → 201; 409 if name taken)
   */
  create(name: string, expire: TaskExpire): Task {
    checkName(name);
    const ms = parseExpire(expire);
    if (this.tasks.has(name)) throw new ModelError('task_exists', `task already exists: ${name}`);
    this.checkRoom();
    return this.set(name, this.deps.clock.now(), ms);
  }

  /**
   * Creates the task, or refreshes it when it is live (its `startedAt` kept, its lease restarted from now).
   * Returns the task and whether it was created.
   * @throws ModelError `invalid` for an empty name or a bad `expire`.
   * @see docs/wire-reference.md §12 (`PUT /v1/tasks/{name}` or `PUT /v1/tasks` → 200, create or refresh)
   */
  upsert(name: string, expire: TaskExpire): { task: Task; created: boolean } {
    checkName(name);
    const ms = parseExpire(expire);
    const existing = this.tasks.get(name);
    if (!existing) this.checkRoom();
    return { task: this.set(name, existing?.task.startedAt ?? this.deps.clock.now(), ms), created: !existing };
  }

  /**
   * Restarts the lease of a live task from now.
   * @throws ModelError `task_not_found` when no such task is live; `invalid` for a bad `expire`.
   */
  refresh(name: string, expire: TaskExpire): Task {
    const ms = parseExpire(expire);
    return this.set(name, this.get(name).startedAt, ms);
  }

  /** A live task (a copy). @throws ModelError `task_not_found`. */
  get(name: string): Task {
    const entry = this.tasks.get(name);
    if (!entry) throw new ModelError('task_not_found', `task not found: ${name}`);
    return { ...entry.task };
  }

  /** Live tasks ordered by name (copies). */
  list(): Task[] {
    return [...this.tasks.values()]
      .map((e) => ({ ...e.task }))
      // Stryker disable next-line EqualityOperator,ConditionalExpression: names are unique, and sort only tells < 0 from the rest.
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Deletes a live task. @throws ModelError `task_not_found`. @see docs/wire-reference.md §12 (`DELETE` → 204; 404) */
  delete(name: string): void {
    this.get(name);
    this.remove(name);
  }

  /** Whether at least one task is live (a live task keeps the sprite active, §12). */
  hasLiveTasks(): boolean {
    return this.tasks.size > 0;
  }

  /** Sprite-addon view of `hasLiveTasks`. */
  busy(): boolean {
    return this.hasLiveTasks();
  }

  /** Removes every task and cancels their timers (sprite delete, admin reset). */
  clear(): void {
    if (this.tasks.size === 0) return;
    for (const { timer } of this.tasks.values()) this.deps.clock.clearTimeout(timer);
    this.tasks.clear();
    this.deps.onChange?.();
  }

  /** Sprite-addon hook: the sprite is deleted or the server stops. */
  shutdown(): void {
    this.clear();
  }

  /**
   * Persistence hook (src/server/store): brings back a task saved before a restart, its lease ending at the saved
   * `expiresAt` (epoch ms). An already expired task is dropped. Returns whether it was restored.
   */
  restore(task: Task): boolean {
    const ms = task.expiresAt - this.deps.clock.now();
    if (ms <= 0 || this.tasks.has(task.name)) return false;
    this.set(task.name, task.startedAt, ms);
    return true;
  }

  /** @throws ModelError `invalid` when the sprite already holds TASKS_MAX live tasks. */
  private checkRoom(): void {
    if (this.tasks.size >= TASKS_MAX) throw new ModelError('invalid', `too many tasks: at most ${TASKS_MAX} per sprite`);
  }

  private set(name: string, startedAt: number, ms: number): Task {
    const old = this.tasks.get(name);
    if (old) this.deps.clock.clearTimeout(old.timer);
    const task: Task = { name, startedAt, expiresAt: this.deps.clock.now() + ms };
    const timer = this.deps.clock.setTimeout(() => this.remove(name), ms);
    this.tasks.set(name, { task, timer });
    this.deps.onChange?.();
    return { ...task };
  }

  private remove(name: string): void {
    const entry = this.tasks.get(name);
    if (!entry) return;
    this.deps.clock.clearTimeout(entry.timer);
    this.tasks.delete(name);
    this.deps.onChange?.();
  }
}

/**
 * Parses a task's `expire` into milliseconds: a duration (`parseDuration`) above 0 and at most 1 hour.
 * @throws ModelError `invalid` otherwise (missing, garbage, 0, negative, more than 1 h).
 * @see docs/wire-reference.md §12 ("`expire`: integer seconds or duration string; maximum 1 h")
 */
export function parseExpire(expire: TaskExpire | undefined): number {
  if (expire === undefined || expire === null) throw new ModelError('invalid', 'expire is required');
  const ms = parseDuration(expire);
  if (ms <= 0) throw new ModelError('invalid', `expire must be positive: ${JSON.stringify(expire)}`);
  if (ms > MAX_TASK_EXPIRE_MS) throw new ModelError('invalid', `expire must be at most 1h: ${JSON.stringify(expire)}`);
  return ms;
}

function checkName(name: string): void {
  if (typeof name !== 'string' || name.trim() === '') throw new ModelError('invalid', 'task name is required');
  if (name.length > TASK_NAME_MAX_LENGTH) throw new ModelError('invalid', `task name too long: at most ${TASK_NAME_MAX_LENGTH} characters`);
}
