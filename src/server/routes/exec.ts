/**
 * Exec handlers over HTTP (docs/wire-reference.md §4.1, §4.8–4.10): the session list, the version probe, HTTP exec
 * (framed octet-stream), one session's details and kill (NDJSON). WebSocket exec lives in `ws/exec.ts`; the start
 * every exec shares (checks, attach or start) in `exec/start.ts`.
 */
import type { HandlerMap } from '../context.ts';
import { startNdjson } from '../http/ndjson.ts';
import { toWireSession } from '../http/wire.ts';
import { framedListener, frameGapFor, HTTP_EXEC_FRAME_GAP_MS } from '../exec/frames.ts';
import { startExec } from '../exec/start.ts';
import { execStreamLimits } from '../config/exec-limits.ts';
import { ModelError } from '../core/errors.ts';
import { maxHeadBytes } from '../http/oversize.ts';
import { parseDuration } from '../core/duration.ts';
import { runAfter } from '../core/clock.ts';
import { normalizeSignalName } from '../../protocol/signals.ts';

function searchParams(originalUrl: string): URLSearchParams {
  return new URL(originalUrl, 'http://spritzer.local').searchParams;
}

/** Handlers of the exec family, by operationId. */
export const execHandlers: HandlerMap = {
  /** `GET …/exec` → `{sessions, count}` (§4.8). */
  listExecSessions({ path }, res, { model, deps }) {
    const sprite = model.get(path.name);
    const now = deps.clock.now();
    const sessions = sprite.sessions.list().map((s) => toWireSession(s, now));
    res.json({ sessions, count: sessions.length });
  },

  /** `HEAD …/exec`: only the `Sprite-Version` header matters (GO's version probe, §2.2). */
  probeExec({ path }, res, { model }) {
    model.get(path.name);
    res.status(200).end();
  },

  /** `GET …/exec/{session_id}` → the session; 404 `session not found: {id}` when it is gone (§4.1). */
  getExecSession({ path }, res, { model, deps }) {
    const sprite = model.get(path.name);
    res.json(toWireSession(sprite.sessions.get(path.session_id), deps.clock.now()));
  },

  /**
   * `POST …/exec` → 200 octet-stream of frames, one chunk per frame, ending in `[3, code]` (§4.10). With
   * `stdin=true` the request body is stdin (at most `maxStdinBytes`: 413 before this handler, http/exec-body.ts).
   * Output frames carry at most `outputChunkBytes` and follow the response's backpressure. A client that
   * disconnects, or falls too far behind (the connection is then reset), has its command killed.
   */
  async execHttp({ path, req }, res, { model, deps }) {
    const sprite = model.get(path.name);
    const q = searchParams(req.originalUrl);
    for (const key of ['tty', 'id', 'detachable', 'cc']) {
      if (q.has(key)) throw new ModelError('invalid_request', `${key} is not supported on HTTP exec`);
    }
    // The command ends with the response, whatever the query says.
    const exec = await startExec({ sprite, query: q, sessionsMax: deps.limits.sessionsMax, commandLineMaxBytes: maxHeadBytes(deps), afterDisconnect: 'at-once' });
    res.status(200);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.flushHeaders();
    const listener = framedListener(
      {
        write: (frame, done) => void res.write(frame, () => done()),
        end: () => res.end(),
        abort: () => res.destroy(),
      },
      execStreamLimits(deps.execLimits),
      frameGapFor(req.get('user-agent'), deps.httpExecFrameGapMs ?? HTTP_EXEC_FRAME_GAP_MS, deps.httpExecFrameGapClients),
    );
    const { session } = exec.open(listener);
    if (exec.stdin && Buffer.isBuffer(req.body) && req.body.length > 0) session.process.writeStdin(new Uint8Array(req.body));
    session.process.endStdin();
    res.on('close', () => {
      listener.close();
      if (!session.exited) session.process.signal('KILL');
    });
  },

  /**
   * `POST …/exec/{session_id}/kill` → 200 NDJSON `signal`, then `exited` (or `timeout` + `killed`), then
   * `complete {exit_code}` (§4.9). Signal and timeout come from the query (docs, GO) or a JSON body (PY),
   * with or without the `SIG` prefix, as a duration or integer seconds; the body wins when both are given (spec
   * `killExecSession`). Unknown ids are 404 before the stream.
   */
  async killExecSession({ path, query, body }, res, { model, deps }) {
    const sprite = model.get(path.name);
    const session = sprite.sessions.getForKill(path.session_id);
    const rawSignal = body?.signal ?? query.signal ?? 'SIGTERM';
    const name = normalizeSignalName(rawSignal);
    if (!name) throw new ModelError('invalid', `invalid signal: ${rawSignal}`);
    const rawTimeout = body?.timeout ?? query.timeout ?? '10s';
    let timeoutMs: number;
    try {
      timeoutMs = parseDuration(rawTimeout);
    } catch {
      throw new ModelError('invalid', `invalid timeout: ${rawTimeout}`);
    }
    const pid = Number(session.id);
    const out = startNdjson(res);
    out.line({ type: 'signal', message: `Signaling SIG${name} to process group ${pid}`, signal: `SIG${name}`, pid });
    session.process.signal(name);
    let code: number;
    if (timeoutMs > 0) {
      // runAfter: a timeout of days (`720h`) must not fire at once as one timer that long would.
      let cancel = () => {};
      const timedOut = new Promise<'timeout'>((r) => (cancel = runAfter(deps.clock, timeoutMs, () => r('timeout'))));
      const first = await Promise.race([session.process.exit, timedOut]);
      cancel();
      if (first === 'timeout') {
        out.line({ type: 'timeout', message: `Process did not exit within ${timeoutMs / 1000}s` });
        session.process.signal('KILL');
        code = await session.process.exit;
        out.line({ type: 'killed', message: `Sent SIGKILL to process group ${pid}` });
      } else {
        code = first;
        out.line({ type: 'exited', message: 'Process exited' });
      }
    } else {
      code = await session.process.exit;
      out.line({ type: 'exited', message: 'Process exited' });
    }
    out.line({ type: 'complete', exit_code: code });
    out.end();
  },
};
