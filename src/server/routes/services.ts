/**
 * Service handlers (docs/wire-reference.md §9): list and get as JSON; put, start, stop, restart and logs as NDJSON
 * streams of `{type, timestamp, …}` lines ending in `complete`; delete and signal as 204. Validation and state
 * live in `model/services.ts`; this module owns the streaming windows (`duration`, `timeout`).
 */
import type { Response } from 'express';
import type { AppContext, HandlerFor, HandlerMap } from '../context.ts';
import { startNdjson, type NdjsonWriter } from '../http/ndjson.ts';
import { toWireService, toWireServiceEvent } from '../http/wire.ts';
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
  const out = startNdjson(res, { maxBufferedBytes: ctx.deps.limits.streamBufferedBytes });
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
  endStream(out, ctx, mgr, service);
}

/**
 * Ends a service stream: its `complete` line, after an `error` line when the client fell so far behind that events
 * were dropped (docs/limits.md: at most `streamBufferedBytes` wait for a client; the service itself goes on).
 */
function endStream(out: NdjsonWriter, ctx: AppContext, mgr: ServiceManager, service: string): void {
  if (out.lagging) {
    const data = `the client reads too slowly: more than ${ctx.deps.limits.streamBufferedBytes} bytes of events waiting; the stream ends, the service goes on`;
    out.line({ type: 'error', timestamp: ctx.deps.clock.now(), data }, true);
  }
  out.line(toWireServiceEvent(mgr.completeEvent(service)), true);
  out.end();
}

/** A handler that runs one service action (start or restart) and streams around it for `duration` (default 5 s). */
function streamedAction(action: (mgr: ServiceManager, service: string) => unknown): HandlerFor<'startService' | 'restartService'> {
  return async ({ path, query }, res, ctx) => {
    const mgr = servicesOf(ctx, path.name);
    await streamAround(res, ctx, mgr, path.service_name, window(query.duration, DEFAULT_STREAM_MS), () => action(mgr, path.service_name));
  };
}

/** Handlers of the services family, by operationId. */
export const serviceHandlers: HandlerMap = {
  /** `GET …/services` → bare array (§9.2). */
  listServices({ path }, res, ctx) {
    res.json(servicesOf(ctx, path.name).list().map(toWireService));
  },

  /** `GET …/services/{service_name}` (§9.2). */
  getService({ path }, res, ctx) {
    res.json(toWireService(servicesOf(ctx, path.name).get(path.service_name)));
  },

  /** `PUT …/services/{service_name}?duration=` → 200 NDJSON from `started` to `complete` (§9.2, DISAGREEMENT 7). */
  async putService({ path, query, body: b }, res, ctx) {
    const mgr = servicesOf(ctx, path.name);
    const svc = path.service_name;
    const windowMs = window(query.duration, DEFAULT_STREAM_MS);
    await streamAround(res, ctx, mgr, svc, windowMs, () =>
      mgr.put(svc, { cmd: b.cmd, args: b.args, needs: b.needs, httpPort: b.http_port ?? b.httpPort, env: b.env, dir: b.dir }),
    );
  },

  /** `POST …/start?duration=` → NDJSON (§9.2). */
  startService: streamedAction((mgr, svc) => mgr.start(svc)),

  /**
   * `POST …/stop?timeout=` → NDJSON `stopping`, `stopped`, `complete`; 409 when not running (§9.2). The `timeout`
   * (default 10 s) goes to the stop itself, and the stream ends when the stop is done.
   */
  async stopService({ path, query }, res, ctx) {
    const mgr = servicesOf(ctx, path.name);
    const timeoutMs = window(query.timeout, 10_000);
    await streamAround(res, ctx, mgr, path.service_name, 0, () => mgr.stop(path.service_name, timeoutMs));
  },

  /** `POST …/restart?duration=` → NDJSON: stop events, then start events (§9.2). */
  restartService: streamedAction((mgr, svc) => mgr.restart(svc)),

  /** `GET …/logs?lines=&duration=` → NDJSON of the log, then live output for `duration` (default 0). */
  async getServiceLogs({ path, query: q }, res, ctx) {
    const mgr = servicesOf(ctx, path.name);
    const svc = path.service_name;
    const past = await mgr.logs(svc, q.lines);
    const windowMs = window(q.duration, 0);
    const out = startNdjson(res, { maxBufferedBytes: ctx.deps.limits.streamBufferedBytes });
    // The log's past lines are all written (the log is bounded by the sprite's disk); only live events can lag.
    for (const e of past) out.line(toWireServiceEvent(e), true);
    if (windowMs > 0) {
      const unsubscribe = mgr.subscribe(svc, (e) => {
        if (e.type !== 'complete') out.line(toWireServiceEvent(e));
      });
      let timer;
      await Promise.race([new Promise<void>((r) => (timer = ctx.deps.clock.setTimeout(r, windowMs))), out.gone]);
      if (timer) ctx.deps.clock.clearTimeout(timer);
      unsubscribe();
    }
    endStream(out, ctx, mgr, svc);
  },

  /** `DELETE …/services/{service_name}` → 204; 409 while it runs or is needed (§9.2). */
  deleteService({ path }, res, ctx) {
    servicesOf(ctx, path.name).delete(path.service_name);
    res.status(204).end();
  },

  /** `POST …/services/signal {name, signal}` → 204; 400 unknown signal; 409 not running (§9.2). */
  async signalService({ path, body }, res, ctx) {
    await servicesOf(ctx, path.name).signal(body.name, body.signal);
    res.status(204).end();
  },
};
