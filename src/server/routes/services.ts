/**
 * Service handlers (docs/wire-reference.md §9): list and get as JSON; put, start, stop, restart and logs as NDJSON
 * streams of `{type, timestamp, …}` lines ending in `complete`; delete and signal as 204. Validation and state
 * live in `model/services.ts`; this module owns the streaming windows (`duration`, `timeout`).
 */
import type { Response } from 'express';
import type { AppContext, HandlerMap } from '../context.ts';
import { startNdjson } from '../http/ndjson.ts';
import { toWireService, toWireServiceEvent } from '../http/wire.ts';
import { bodyOf, queryOf } from '../http/typed.ts';
import { parseDuration } from '../core/duration.ts';
import type { ServiceEvent, ServiceManager } from '../model/services.ts';
import { ModelError } from '../core/errors.ts';

/** Default streaming window of put/start/restart (§9.2: `duration` default 5s). */
export const DEFAULT_STREAM_MS = 5_000;

/** The service manager of a sprite (404 sprite not found first). */
export function servicesOf(ctx: AppContext, name: string): ServiceManager {
  return ctx.model.get(name).services;
}

function window(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  try {
    return parseDuration(raw);
  } catch {
    throw new ModelError('invalid', `invalid duration: ${raw}`);
  }
}

/**
 * Runs `action` and streams the service's events: everything it emits from just before the action, for
 * `windowMs` (0 = return at once), then `complete` with `log_files`. If `action` throws synchronously the
 * error becomes a normal HTTP error (nothing was written yet); a later failure is an `error` line.
 */
async function streamAround(
  res: Response,
  ctx: AppContext,
  mgr: ServiceManager,
  service: string,
  windowMs: number,
  action: () => unknown,
  until?: (e: ServiceEvent) => boolean,
): Promise<void> {
  const buffered: ServiceEvent[] = [];
  let write: ((e: ServiceEvent) => void) | null = null;
  let finished!: () => void;
  const done = new Promise<void>((r) => (finished = r));
  const unsubscribe = mgr.subscribe(service, (e) => {
    if (write) write(e);
    else buffered.push(e);
    if (until?.(e)) finished();
  });
  let pending: unknown;
  try {
    pending = action();
  } catch (err) {
    unsubscribe();
    throw err;
  }
  const out = startNdjson(res);
  write = (e) => out.line(toWireServiceEvent(e));
  for (const e of buffered) write(e);
  try {
    await pending;
  } catch (err) {
    out.line({ type: 'error', timestamp: ctx.deps.clock.now(), data: (err as Error).message });
  }
  if (windowMs > 0) {
    const timer = ctx.deps.clock.setTimeout(finished, windowMs);
    await Promise.race([done, out.gone]);
    ctx.deps.clock.clearTimeout(timer);
  }
  unsubscribe();
  out.line(toWireServiceEvent(mgr.completeEvent(service)));
  out.end();
}

/**
 * A handler that runs one service action and streams around it. start/restart stream for `duration`
 * (default 5 s); stop passes its `timeout` (default 10 s) to the action and returns when it is done.
 */
function streamedAction(
  op: 'startService' | 'stopService' | 'restartService',
  action: (mgr: ServiceManager, service: string, timeoutMs: number) => unknown,
): HandlerMap[string] {
  return async (req, res, ctx) => {
    const mgr = servicesOf(ctx, req.params.name as string);
    const svc = req.params.service_name as string;
    const q = queryOf(req, op) as { duration?: string; timeout?: string };
    if (op === 'stopService') {
      const timeoutMs = window(q.timeout, 10_000);
      return streamAround(res, ctx, mgr, svc, 0, () => action(mgr, svc, timeoutMs));
    }
    await streamAround(res, ctx, mgr, svc, window(q.duration, DEFAULT_STREAM_MS), () => action(mgr, svc, 0));
  };
}

/** Handlers of the services family, by operationId. */
export const serviceHandlers: HandlerMap = {
  /** `GET …/services` → bare array (§9.2). */
  listServices(req, res, ctx) {
    res.json(servicesOf(ctx, req.params.name as string).list().map(toWireService));
  },

  /** `GET …/services/{service_name}` (§9.2). */
  getService(req, res, ctx) {
    res.json(toWireService(servicesOf(ctx, req.params.name as string).get(req.params.service_name as string)));
  },

  /** `PUT …/services/{service_name}?duration=` → 200 NDJSON from `started` to `complete` (§9.2, DISAGREEMENT 7). */
  async putService(req, res, ctx) {
    const mgr = servicesOf(ctx, req.params.name as string);
    const svc = req.params.service_name as string;
    const b = bodyOf(req, 'putService') as { cmd?: string; args?: string[]; needs?: string[]; http_port?: number | null; httpPort?: number | null; env?: Record<string, string>; dir?: string };
    const windowMs = window(queryOf(req, 'putService').duration, DEFAULT_STREAM_MS);
    await streamAround(res, ctx, mgr, svc, windowMs, () =>
      mgr.put(svc, { cmd: b.cmd, args: b.args, needs: b.needs, httpPort: b.http_port ?? b.httpPort, env: b.env, dir: b.dir }),
    );
  },

  /** `POST …/start?duration=` → NDJSON (§9.2). */
  startService: streamedAction('startService', (mgr, svc) => mgr.start(svc)),

  /** `POST …/stop?timeout=` → NDJSON `stopping`, `stopped`, `complete`; 409 when not running (§9.2). */
  stopService: streamedAction('stopService', (mgr, svc, ms) => mgr.stop(svc, ms)),

  /** `POST …/restart?duration=` → NDJSON: stop events, then start events (§9.2). */
  restartService: streamedAction('restartService', (mgr, svc) => mgr.restart(svc)),

  /** `GET …/logs?lines=&duration=` → NDJSON of the log, then live output for `duration` (default 0). */
  async getServiceLogs(req, res, ctx) {
    const mgr = servicesOf(ctx, req.params.name as string);
    const svc = req.params.service_name as string;
    const q = queryOf(req, 'getServiceLogs');
    const past = await mgr.logs(svc, q.lines);
    const windowMs = window(q.duration, 0);
    const out = startNdjson(res);
    for (const e of past) out.line(toWireServiceEvent(e));
    if (windowMs > 0) {
      const unsubscribe = mgr.subscribe(svc, (e) => {
        if (e.type !== 'complete') out.line(toWireServiceEvent(e));
      });
      let timer;
      await Promise.race([new Promise<void>((r) => (timer = ctx.deps.clock.setTimeout(r, windowMs))), out.gone]);
      if (timer) ctx.deps.clock.clearTimeout(timer);
      unsubscribe();
    }
    out.line(toWireServiceEvent(mgr.completeEvent(svc)));
    out.end();
  },

  /** `DELETE …/services/{service_name}` → 204; 409 while it runs or is needed (§9.2). */
  deleteService(req, res, ctx) {
    servicesOf(ctx, req.params.name as string).delete(req.params.service_name as string);
    res.status(204).end();
  },

  /** `POST …/services/signal {name, signal}` → 204; 400 unknown signal; 409 not running (§9.2). */
  async signalService(req, res, ctx) {
    const b = bodyOf(req, 'signalService');
    await servicesOf(ctx, req.params.name as string).signal(b.name, b.signal);
    res.status(204).end();
  },
};
