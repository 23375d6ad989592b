/**
 * Tasks handlers (docs/wire-reference.md §12): leases that keep a sprite running. The in-sprite API is documented at
 * `/v1/tasks`; exposing it as `/v1/sprites/{name}/tasks` is an emulator convenience (UNCONFIRMED, §17).
 */
import type { HandlerMap } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import { MAX_TASK_EXPIRE_MS, type TaskExpire, type TaskRegistry } from '../model/tasks.ts';
import { toWireTask } from '../http/wire.ts';
import { bodyOf } from '../http/typed.ts';

/** Lease of a task whose request names no `expire`: 1 h, in seconds (spec `TaskRequest`, `TaskRefreshRequest`). */
export const DEFAULT_TASK_EXPIRE: TaskExpire = MAX_TASK_EXPIRE_MS / 1000;

function expireOf(body: { expire?: unknown } | undefined): TaskExpire {
  return (body?.expire as TaskExpire | undefined) ?? DEFAULT_TASK_EXPIRE;
}

function tasksOf(sprite: Sprite): TaskRegistry {
  return sprite.tasks;
}

/** Handlers of the tasks family, by operationId. */
export const taskHandlers: HandlerMap = {
  /** `GET …/tasks` → `{tasks}` (live ones only). */
  listTasks(req, res, { model }) {
    res.json({ tasks: tasksOf(model.get(req.params.name as string)).list().map(toWireTask) });
  },
  /** `GET …/tasks/{task_name}` → the task; 404 text when missing or expired. */
  getTask(req, res, { model }) {
    res.json(toWireTask(tasksOf(model.get(req.params.name as string)).get(req.params.task_name as string)));
  },
  /** `POST …/tasks {name, expire?}` → 201 the task; 409 while one of that name is live. */
  createTask(req, res, { model }) {
    const b = bodyOf(req, 'createTask');
    res.status(201).json(toWireTask(tasksOf(model.get(req.params.name as string)).create(b.name, expireOf(b))));
  },
  /** `PUT …/tasks {name, expire?}` → 200 the created or refreshed task. */
  upsertTask(req, res, { model }) {
    const b = bodyOf(req, 'upsertTask');
    res.json(toWireTask(tasksOf(model.get(req.params.name as string)).upsert(b.name, expireOf(b)).task));
  },
  /** `PUT …/tasks/{task_name}` creates the task or refreshes it (§12: "create or refresh"; body optional). */
  refreshTask(req, res, { model }) {
    const b = bodyOf(req, 'refreshTask');
    res.json(toWireTask(tasksOf(model.get(req.params.name as string)).upsert(req.params.task_name as string, expireOf(b)).task));
  },
  /** `DELETE …/tasks/{task_name}` → 204; 404 text when missing. */
  deleteTask(req, res, { model }) {
    tasksOf(model.get(req.params.name as string)).delete(req.params.task_name as string);
    res.status(204).end();
  },
};
