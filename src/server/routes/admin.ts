/**
 * Emulator-only handlers under `/_spritzer` (tag `spritzer` in the spec): health with version and the
 * implemented operations, reset, a state snapshot and fault rules. Nothing here exists on real Sprites.
 */
import { readFileSync } from 'node:fs';
import { projectPath } from '../runtime/project-root.ts';
import type { HandlerMap } from '../context.ts';
import { ModelError } from '../core/errors.ts';
import { inspectorHandlers } from '../inspector/index.ts';

const pkg = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string };

/** spritzer's own version (package.json). */
export const SPRITZER_VERSION = pkg.version;

/** Handlers of the admin family, by operationId. */
export const adminHandlers: HandlerMap = {
  /** `GET /_spritzer/health` → `{status, version, engine, operations}`. */
  getSpritzerHealth(_req, res, { deps, implemented }) {
    res.json({ status: 'ok', version: SPRITZER_VERSION, engine: deps.machines.engine, operations: [...implemented].sort() });
  },

  /** `POST /_spritzer/reset` → 204: every sprite, session, service and fault rule is gone. */
  async resetSpritzer(_req, res, { model, faults }) {
    await model.clear();
    faults.clear();
    res.status(204).end();
  },

  /** `GET /_spritzer/state` → a summary of every sprite. */
  async getSpritzerState(_req, res, { model }) {
    const sprites = await Promise.all(
      model.all().map(async (s) => {
        const usage = await s.machine.usage();
        return {
          name: s.name,
          id: s.id,
          status: s.status(),
          checkpoints: s.checkpoints.length,
          files: usage.files,
          bytes: usage.bytes,
          sessions: s.sessions.list().length,
          services: s.services.list().length,
          ...(s.machine.bootFailure !== undefined ? { boot_error: s.machine.bootFailure } : {}),
        };
      }),
    );
    res.json({ sprites });
  },

  /** `GET /_spritzer/faults` → `{rules}`. */
  listFaults(_req, res, { faults }) {
    res.json({ rules: faults.list() });
  },

  /** `POST /_spritzer/faults` → 201 the stored rule; 400 for an operationId spritzer does not implement. */
  addFault({ body: rule }, res, { faults, implemented }) {
    if (rule.operationId !== undefined && !implemented.has(rule.operationId)) {
      throw new ModelError('invalid_request', `unknown operationId: ${rule.operationId}`);
    }
    // Faults apply to the Sprites API only (app.ts never injects them under /_spritzer): a rule that could never fire is refused.
    if (rule.operationId !== undefined && (Object.hasOwn(adminHandlers, rule.operationId) || Object.hasOwn(inspectorHandlers, rule.operationId))) {
      throw new ModelError('invalid_request', `faults apply to the Sprites API, not to the emulator's own operation ${rule.operationId}`);
    }
    res.status(201).json(faults.add(rule));
  },

  /** `DELETE /_spritzer/faults` → 204. */
  clearFaults(_req, res, { faults }) {
    faults.clear();
    res.status(204).end();
  },
};
