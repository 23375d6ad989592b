/**
 * Tasks handlers (docs/wire-reference.md §12): leases that keep a sprite running. The in-sprite API is documented at
 * `/v1/tasks`; exposing it as `/v1/sprites/{name}/tasks` is an emulator convenience (UNCONFIRMED, §17).
 */
import type { HandlerMap } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import { MAX_TASK_EXPIRE_MS, type TaskExpire, type TaskRegistry } from '../model/tasks.ts';
import { toWireTask } from '../http/wire.ts';

/** Lease of a task whose request names no `expire`: 1 h, in seconds (spec `TaskRequest`, `TaskRefreshRequest`). */
export const DEFAULT_TASK_EXPIRE: TaskExpire = MAX_TASK_EXPIRE_MS / 1000;

function expireOf(body: { expire?: TaskExpire } | undefined): TaskExpire {
  return body?.expire ?? DEFAULT_TASK_EXPIRE;
}

function tasksOf(sprite: Sprite): TaskRegistry {
  return sprite.tasks;
}

/** Handlers of the tasks family, by operationId. */
export const taskHandlers: HandlerMap = {
  /** `GET …/tasks` → `{tasks}` (live ones only). */
  listTasks({ path }, res, { model }) {
    res.json({ tasks: tasksOf(model.get(path.name)).list().map(toWireTask) });
  },
  /** `GET …/tasks/{task_name}` → the task; 404 text when missing or expired. */
  getTask({ path }, res, { model }) {
    res.json(toWireTask(tasksOf(model.get(path.name)).get(path.task_name)));
  },
  /** `POST …/tasks {name, expire?}` → 201 the task; 409 while one of that name is live. */
  createTask({ path, body }, res, { model }) {
    res.status(201).json(toWireTask(tasksOf(model.get(path.name)).create(body.name, expireOf(body))));
  },
  /** `PUT …/tasks {name, expire?}` → 200 the created or refreshed task. */
  upsertTask({ path, body }, res, { model }) {
    res.json(toWireTask(tasksOf(model.get(path.name)).upsert(body.name, expireOf(body)).task));
  },
  /** `PUT …/tasks/{task_name}` creates the task or refreshes it (§12: "create or refresh"; body optional). */
  refreshTask({ path, body }, res, { model }) {
    res.json(toWireTask(tasksOf(model.get(path.name)).upsert(path.task_name, expireOf(body)).task));
  },
  /** `DELETE …/tasks/{task_name}` → 204; 404 text when missing. */
  deleteTask({ path }, res, { model }) {
    tasksOf(model.get(path.name)).delete(path.task_name);
    res.status(204).end();
  },
};
