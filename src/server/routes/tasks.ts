/**
 * Tasks handlers (sprites-wire.md §12): leases that keep a sprite running. The in-sprite API is documented at
 * `/v1/tasks`; exposing it as `/v1/sprites/{name}/tasks` is an emulator convenience (UNCONFIRMED, §17).
 */
import type { HandlerMap } from '../context.ts';
import type { Sprite } from '../model/sprites.ts';
import type { TaskExpire, TaskRegistry } from '../model/tasks.ts';
import { toWireTask } from '../http/wire.ts';
import { bodyOf } from '../http/typed.ts';

function tasksOf(sprite: Sprite): TaskRegistry {
  return sprite.addons.get('tasks') as TaskRegistry;
}

/** Handlers of the tasks family, by operationId. */
export const taskHandlers: HandlerMap = {
  listTasks(req, res, { model }) {
    res.json({ tasks: tasksOf(model.get(req.params.name as string)).list().map(toWireTask) });
  },
  getTask(req, res, { model }) {
    res.json(toWireTask(tasksOf(model.get(req.params.name as string)).get(req.params.task_name as string)));
  },
  createTask(req, res, { model }) {
    const b = bodyOf(req, 'createTask');
    res.status(201).json(toWireTask(tasksOf(model.get(req.params.name as string)).create(b.name, b.expire as TaskExpire)));
  },
  upsertTask(req, res, { model }) {
    const b = bodyOf(req, 'upsertTask');
    res.json(toWireTask(tasksOf(model.get(req.params.name as string)).upsert(b.name, b.expire as TaskExpire).task));
  },
  refreshTask(req, res, { model }) {
    const b = bodyOf(req, 'refreshTask');
    res.json(toWireTask(tasksOf(model.get(req.params.name as string)).refresh(req.params.task_name as string, b.expire as TaskExpire)));
  },
  deleteTask(req, res, { model }) {
    tasksOf(model.get(req.params.name as string)).delete(req.params.task_name as string);
    res.status(204).end();
  },
};
