/**
 * The method table of @spritzer/sdk: one typed method per operationId of spec/openapi.yaml, each a thin call
 * through openapi-fetch on the generated `paths`. The table must name every operation (a missing or extra one
 * is a type error), and `SDK_METHODS` is read from it for the coverage report. It does not do exec over
 * WebSocket (exec.ts) nor parse NDJSON lines (ndjson.ts).
 * @see spec/openapi.yaml; docs/architecture.md "One name, four places"
 */
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from '../../generated/openapi.d.ts';
import { apiErrorFrom } from './errors.ts';
import { CHECKPOINT_STREAM, EventStream, KILL_STREAM, SERVICE_STREAM, type StreamKind, type TypedEvent } from './ndjson.ts';
import type { CheckpointStreamEvent, KillStreamEvent, ServiceStreamEvent } from './ndjson.ts';
import { parseExecHttpBody, type ExecHttpResult } from './exec-http.ts';

/** An operationId of spec/openapi.yaml. */
export type OperationId = keyof operations;

type Schemas = components['schemas'];
type Query<O extends OperationId> = NonNullable<operations[O]['parameters']['query']>;

/** What every method uses: the typed openapi-fetch client. */
export interface OperationContext {
  http: Client<paths>;
}

/** Bytes or UTF-8 text sent as an `application/octet-stream` body. */
export type BodyBytes = Uint8Array | string;

/** Options of readFile / listFiles / deleteFile: relative paths resolve against `workingDir` (default `/`). */
export interface FsPathOptions {
  workingDir?: string;
}

/** Options of writeFile. `mode` is permission bits (a number such as `0o644`, or an octal string `"0644"`). */
export interface WriteFileOptions extends FsPathOptions {
  mode?: number | string;
  /** Create missing parent directories (default true, as every official SDK sends). */
  mkdirParents?: boolean;
}

/** Options of execHttp. @see docs/wire-reference.md §4.10 */
export interface ExecHttpOptions {
  /** Fed to the command's stdin (then EOF). */
  stdin?: BodyBytes;
  /** Replaces the default environment. */
  env?: Record<string, string> | string[];
  dir?: string;
}

/** Options of listCheckpoints; with `history` the server answers text/plain lines (§7.3). */
export interface ListCheckpointsOptions {
  includeAuto?: boolean;
  history?: string;
}

/** The openapi-fetch answer, as far as the SDK reads it. */
interface FetchResult<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/** Awaits an openapi-fetch call; returns `data` or throws `SpritesApiError` / `FilesystemError`. */
async function ok<D>(pending: Promise<FetchResult<D>>): Promise<D> {
  const { data, error, response } = await pending;
  if (!response.ok || error !== undefined) throw apiErrorFrom(response.status, error, response.headers);
  return data as D;
}

/** As {@link ok} for a `parseAs: 'stream'` call, wrapping the body in an `EventStream`. */
async function events<T extends TypedEvent>(pending: Promise<FetchResult<unknown>>, kind: StreamKind<T>): Promise<EventStream<T>> {
  const body = await ok(pending);
  return new EventStream<T>(body as ReadableStream<Uint8Array> | null, kind);
}

/** An octet-stream body: openapi-fetch must pass it through, not JSON-encode it. */
function octets(data: BodyBytes) {
  return {
    body: new Blob([typeof data === 'string' ? data : new Uint8Array(data)]),
    bodySerializer: (b: unknown) => b as Blob,
    headers: { 'Content-Type': 'application/octet-stream' },
  };
}

/** `KEY=VALUE` strings from a record or a list. */
function envList(env: Record<string, string> | string[] | undefined): string[] | undefined {
  if (env === undefined) return undefined;
  return Array.isArray(env) ? env : Object.entries(env).map(([k, v]) => `${k}=${v}`);
}

/** Permission bits as the 4-digit octal string the SDKs send (`0o644` → `"0644"`). @see docs/wire-reference.md §8.2 */
export function fileModeString(mode: number | string): string {
  return typeof mode === 'string' ? mode : mode.toString(8).padStart(4, '0');
}

const name = (spriteName: string) => ({ name: spriteName });

/**
 * Builds the operation methods over a context. Argument conventions: the sprite name first, then the other
 * path parameters, then the body (or the natural value: bytes, argv), then an options object for the query.
 * Errors: every method throws `SpritesApiError` for a status ≥ 400 (`FilesystemError` for fs bodies).
 * NDJSON methods return an `EventStream` once the 200 headers arrived.
 */
export function operationMethods(c: OperationContext) {
  const path = (spriteName: string) => ({ params: { path: name(spriteName) } });
  return {
    // ── sprites (§3) ─────────────────────────────────────────────────────────────────────────────
    /** `GET /v1/sprites` → one page `{sprites, has_more, next_continuation_token, …}`. @see docs/wire-reference.md §3.3 */
    listSprites: (query: Query<'listSprites'> = {}) => ok(c.http.GET('/v1/sprites', { params: { query } })),
    /** `POST /v1/sprites` → 201 the new sprite (409 when the name is taken). @see docs/wire-reference.md §3.2 */
    createSprite: (body: Schemas['CreateSpriteRequest']) => ok(c.http.POST('/v1/sprites', { body })),
    /** `GET /v1/sprites/{name}` → the sprite (404 `{"error":"sprite not found"}`). @see docs/wire-reference.md §3.4 */
    getSprite: (spriteName: string) => ok(c.http.GET('/v1/sprites/{name}', path(spriteName))),
    /** `PUT /v1/sprites/{name}` partial update (e.g. `{url_settings}`) → the sprite. @see docs/wire-reference.md §3.5 */
    updateSprite: (spriteName: string, body: Schemas['UpdateSpriteRequest']) =>
      ok(c.http.PUT('/v1/sprites/{name}', { ...path(spriteName), body })),
    /** `DELETE /v1/sprites/{name}` → 204. @see docs/wire-reference.md §3.6 */
    deleteSprite: async (spriteName: string): Promise<void> => void (await ok(c.http.DELETE('/v1/sprites/{name}', path(spriteName)))),
    /** `POST /v1/sprites/{name}/upgrade` → 204. @see docs/wire-reference.md §3.7 */
    upgradeSprite: async (spriteName: string): Promise<void> =>
      void (await ok(c.http.POST('/v1/sprites/{name}/upgrade', path(spriteName)))),
    /** `GET /v1/sprites/{name}/check` → health `{sprite_name, status, …}`. */
    checkSprite: (spriteName: string) => ok(c.http.GET('/v1/sprites/{name}/check', path(spriteName))),
    /** `POST /v1/sprites/{name}/restart` → `{sprite_name, machine_id, message}`. */
    restartSprite: (spriteName: string) => ok(c.http.POST('/v1/sprites/{name}/restart', path(spriteName))),
    /** `GET /v1/organization` → `{name, slug}`. */
    getOrganization: () => ok(c.http.GET('/v1/organization')),
    /**
     * `POST /v1/organizations/{org}/tokens` with `Authorization: FlyV1 <macaroon>` (not the client's bearer
     * token) → 201 `{token}`. @see docs/wire-reference.md §3.9
     */
    createToken: (org: string, macaroon: string, body: Schemas['CreateTokenRequest'] = {}) =>
      ok(
        c.http.POST('/v1/organizations/{org}/tokens', {
          params: { path: { org } },
          body,
          headers: { Authorization: `FlyV1 ${macaroon}` },
        }),
      ),

    // ── exec (§4) ────────────────────────────────────────────────────────────────────────────────
    /** `GET /v1/sprites/{name}/exec` → `{sessions, count}`. @see docs/wire-reference.md §4.8 */
    listExecSessions: (spriteName: string) => ok(c.http.GET('/v1/sprites/{name}/exec', path(spriteName))),
    /** `HEAD /v1/sprites/{name}/exec` → the response headers (`Sprite-Version`). @see docs/wire-reference.md §2.2 */
    probeExec: async (spriteName: string): Promise<Headers> => {
      const result = await c.http.HEAD('/v1/sprites/{name}/exec', path(spriteName));
      await ok(Promise.resolve(result));
      return result.response.headers;
    },
    /**
     * `POST /v1/sprites/{name}/exec?cmd=…` (non-TTY, no WebSocket) → the parsed frames
     * `{stdout, stderr, exitCode}`. @see docs/wire-reference.md §4.10
     */
    execHttp: async (spriteName: string, argv: readonly string[], opts: ExecHttpOptions = {}): Promise<ExecHttpResult> => {
      const query = {
        cmd: [...argv],
        path: argv[0],
        ...(opts.stdin !== undefined ? { stdin: true } : {}),
        ...(opts.env !== undefined ? { env: envList(opts.env) } : {}),
        ...(opts.dir !== undefined ? { dir: opts.dir } : {}),
      };
      const body = await ok(
        c.http.POST('/v1/sprites/{name}/exec', {
          params: { path: name(spriteName), query },
          ...(opts.stdin !== undefined ? octets(opts.stdin) : {}),
          parseAs: 'stream',
        }),
      );
      return parseExecHttpBody(body as ReadableStream<Uint8Array> | null);
    },
    /** `GET /v1/sprites/{name}/exec/{session_id}` → the session (404 when it exited). @see docs/wire-reference.md §4.1 */
    getExecSession: (spriteName: string, sessionId: string) =>
      ok(c.http.GET('/v1/sprites/{name}/exec/{session_id}', { params: { path: { name: spriteName, session_id: sessionId } } })),
    /**
     * `POST /v1/sprites/{name}/exec/{session_id}/kill?signal=&timeout=` → NDJSON `signal`, `exited` |
     * `timeout`+`killed`, then `complete {exit_code}`. @see docs/wire-reference.md §4.9
     */
    killExecSession: (spriteName: string, sessionId: string, query: Query<'killExecSession'> = {}) =>
      events<KillStreamEvent>(
        c.http.POST('/v1/sprites/{name}/exec/{session_id}/kill', {
          params: { path: { name: spriteName, session_id: sessionId }, query },
          parseAs: 'stream',
        }),
        KILL_STREAM,
      ),

    // ── checkpoints (§7) ─────────────────────────────────────────────────────────────────────────
    /**
     * `POST /v1/sprites/{name}/checkpoint` `{comment?}` → NDJSON progress ending in `complete`
     * (`Checkpoint vN created successfully`) or `error`. See `createCheckpointAndWait` for the id.
     * @see docs/wire-reference.md §7.1
     */
    createCheckpoint: (spriteName: string, body: Schemas['CreateCheckpointRequest'] = {}) =>
      events<CheckpointStreamEvent>(
        c.http.POST('/v1/sprites/{name}/checkpoint', { ...path(spriteName), body, parseAs: 'stream' }),
        CHECKPOINT_STREAM,
      ),
    /**
     * `GET /v1/sprites/{name}/checkpoints` → the list, `Current` first. With `history` the server answers
     * text/plain lines, returned as the raw text. @see docs/wire-reference.md §7.3
     */
    listCheckpoints: <O extends ListCheckpointsOptions = {}>(
      spriteName: string,
      opts?: O,
    ): Promise<O extends { history: string } ? string : Schemas['CheckpointList']> => {
      const query = { includeAuto: opts?.includeAuto, history: opts?.history };
      const init = { params: { path: name(spriteName), query } };
      const pending = opts?.history !== undefined ? c.http.GET('/v1/sprites/{name}/checkpoints', { ...init, parseAs: 'text' }) : c.http.GET('/v1/sprites/{name}/checkpoints', init);
      return ok(pending as Promise<FetchResult<never>>);
    },
    /** `GET /v1/sprites/{name}/checkpoints/{id}` → the checkpoint (404 unknown). @see docs/wire-reference.md §7.4 */
    getCheckpoint: (spriteName: string, checkpointId: string) =>
      ok(
        c.http.GET('/v1/sprites/{name}/checkpoints/{checkpoint_id}', {
          params: { path: { name: spriteName, checkpoint_id: checkpointId } },
        }),
      ),
    /** `DELETE /v1/sprites/{name}/checkpoints/{id}` → 204 (409 for the active one). @see docs/wire-reference.md §7.6 */
    deleteCheckpoint: async (spriteName: string, checkpointId: string): Promise<void> =>
      void (await ok(
        c.http.DELETE('/v1/sprites/{name}/checkpoints/{checkpoint_id}', {
          params: { path: { name: spriteName, checkpoint_id: checkpointId } },
        }),
      )),
    /**
     * `POST /v1/sprites/{name}/checkpoints/{id}/restore` → NDJSON progress ending in `complete` or `error`.
     * See `restoreCheckpointAndWait` to await completion. @see docs/wire-reference.md §7.5
     */
    restoreCheckpoint: (spriteName: string, checkpointId: string) =>
      events<CheckpointStreamEvent>(
        c.http.POST('/v1/sprites/{name}/checkpoints/{checkpoint_id}/restore', {
          params: { path: { name: spriteName, checkpoint_id: checkpointId } },
          parseAs: 'stream',
        }),
        CHECKPOINT_STREAM,
      ),

    // ── filesystem (§8) ──────────────────────────────────────────────────────────────────────────
    /** `GET …/fs/read` → the file's bytes (`FilesystemError` ENOENT / EISDIR). @see docs/wire-reference.md §8.1 */
    readFile: async (spriteName: string, filePath: string, opts: FsPathOptions = {}): Promise<Uint8Array> => {
      const query = { path: filePath, workingDir: opts.workingDir ?? '/' };
      const data = await ok(c.http.GET('/v1/sprites/{name}/fs/read', { params: { path: name(spriteName), query }, parseAs: 'arrayBuffer' }));
      return new Uint8Array(data as ArrayBuffer);
    },
    /**
     * `PUT …/fs/write?path=&mode=0NNN&mkdirParents=true` with the raw bytes → `{path, size, mode}`.
     * @see docs/wire-reference.md §8.2
     */
    writeFile: (spriteName: string, filePath: string, data: BodyBytes, opts: WriteFileOptions = {}) => {
      const query = {
        path: filePath,
        workingDir: opts.workingDir ?? '/',
        mkdirParents: opts.mkdirParents ?? true,
        ...(opts.mode !== undefined ? { mode: fileModeString(opts.mode) } : {}),
      };
      return ok(c.http.PUT('/v1/sprites/{name}/fs/write', { params: { path: name(spriteName), query }, ...octets(data) }));
    },
    /**
     * `GET …/fs/list` → `{path, count, entries}`; a file path lists that one file (the SDKs' `stat`).
     * @see docs/wire-reference.md §8.3
     */
    listFiles: (spriteName: string, filePath: string, opts: FsPathOptions & { recursive?: boolean; pattern?: string } = {}) =>
      ok(c.http.GET('/v1/sprites/{name}/fs/list', { params: { path: name(spriteName), query: { workingDir: '/', ...opts, path: filePath } } })),
    /** `DELETE …/fs/delete` → `{deleted, count}` (ENOTEMPTY without `recursive`). @see docs/wire-reference.md §8.4 */
    deleteFile: (spriteName: string, filePath: string, opts: FsPathOptions & { recursive?: boolean; asRoot?: boolean } = {}) =>
      ok(c.http.DELETE('/v1/sprites/{name}/fs/delete', { params: { path: name(spriteName), query: { workingDir: '/', ...opts, path: filePath } } })),
    /** `POST …/fs/rename` `{source, dest, workingDir?}` → `{source, dest}`. @see docs/wire-reference.md §8.5 */
    renameFile: (spriteName: string, body: Schemas['FsRenameRequest']) =>
      ok(c.http.POST('/v1/sprites/{name}/fs/rename', { ...path(spriteName), body: { workingDir: '/', ...body } })),
    /** `POST …/fs/copy` `{source, dest, recursive?}` → `{copied, count, totalBytes}`. @see docs/wire-reference.md §8.6 */
    copyFile: (spriteName: string, body: Schemas['FsCopyRequest']) =>
      ok(c.http.POST('/v1/sprites/{name}/fs/copy', { ...path(spriteName), body: { workingDir: '/', ...body } })),
    /** `POST …/fs/chmod` `{path, mode, recursive?}` → `{affected, count}`. @see docs/wire-reference.md §8.7 */
    chmodFile: (spriteName: string, body: Schemas['FsChmodRequest']) =>
      ok(c.http.POST('/v1/sprites/{name}/fs/chmod', { ...path(spriteName), body: { workingDir: '/', ...body } })),
    /** `POST …/fs/chown` `{path, uid, gid, recursive?}` → `{affected, count}`. @see docs/wire-reference.md §8.8 */
    chownFile: (spriteName: string, body: Schemas['FsChownRequest']) =>
      ok(c.http.POST('/v1/sprites/{name}/fs/chown', { ...path(spriteName), body: { workingDir: '/', ...body } })),

    // ── services (§9) ────────────────────────────────────────────────────────────────────────────
    /** `GET …/services` → every service with its state. @see docs/wire-reference.md §9.2 */
    listServices: (spriteName: string) => ok(c.http.GET('/v1/sprites/{name}/services', path(spriteName))),
    /** `POST …/services/signal` `{name, signal}` → 204 (409 when not running). @see docs/wire-reference.md §9.2 */
    signalService: async (spriteName: string, serviceName: string, signal: string): Promise<void> =>
      void (await ok(c.http.POST('/v1/sprites/{name}/services/signal', { ...path(spriteName), body: { name: serviceName, signal } }))),
    /** `GET …/services/{svc}` → the service with state. @see docs/wire-reference.md §9.2 */
    getService: (spriteName: string, serviceName: string) =>
      ok(c.http.GET('/v1/sprites/{name}/services/{service_name}', { params: { path: { name: spriteName, service_name: serviceName } } })),
    /** `PUT …/services/{svc}?duration=` `{cmd, args?, needs?, http_port?, env?, dir?}` → NDJSON log events. @see docs/wire-reference.md §9.2 */
    putService: (spriteName: string, serviceName: string, body: Schemas['PutServiceRequest'], query: Query<'putService'> = {}) =>
      events<ServiceStreamEvent>(
        c.http.PUT('/v1/sprites/{name}/services/{service_name}', {
          params: { path: { name: spriteName, service_name: serviceName }, query },
          body,
          parseAs: 'stream',
        }),
        SERVICE_STREAM,
      ),
    /** `DELETE …/services/{svc}` → 204 (409 when running or needed). @see docs/wire-reference.md §9.2 */
    deleteService: async (spriteName: string, serviceName: string): Promise<void> =>
      void (await ok(
        c.http.DELETE('/v1/sprites/{name}/services/{service_name}', { params: { path: { name: spriteName, service_name: serviceName } } }),
      )),
    /** `POST …/services/{svc}/start?duration=` → NDJSON events. @see docs/wire-reference.md §9.2 */
    startService: (spriteName: string, serviceName: string, query: Query<'startService'> = {}) =>
      events<ServiceStreamEvent>(
        c.http.POST('/v1/sprites/{name}/services/{service_name}/start', {
          params: { path: { name: spriteName, service_name: serviceName }, query },
          parseAs: 'stream',
        }),
        SERVICE_STREAM,
      ),
    /** `POST …/services/{svc}/stop?timeout=` → NDJSON `stopping`, `stopped`, `complete`. @see docs/wire-reference.md §9.2 */
    stopService: (spriteName: string, serviceName: string, query: Query<'stopService'> = {}) =>
      events<ServiceStreamEvent>(
        c.http.POST('/v1/sprites/{name}/services/{service_name}/stop', {
          params: { path: { name: spriteName, service_name: serviceName }, query },
          parseAs: 'stream',
        }),
        SERVICE_STREAM,
      ),
    /** `POST …/services/{svc}/restart?duration=` → NDJSON stop then start events. @see docs/wire-reference.md §9.2 */
    restartService: (spriteName: string, serviceName: string, query: Query<'restartService'> = {}) =>
      events<ServiceStreamEvent>(
        c.http.POST('/v1/sprites/{name}/services/{service_name}/restart', {
          params: { path: { name: spriteName, service_name: serviceName }, query },
          parseAs: 'stream',
        }),
        SERVICE_STREAM,
      ),
    /** `GET …/services/{svc}/logs?lines=&duration=` → NDJSON log lines then `complete`. @see docs/wire-reference.md §9.2 */
    getServiceLogs: (spriteName: string, serviceName: string, query: Query<'getServiceLogs'> = {}) =>
      events<ServiceStreamEvent>(
        c.http.GET('/v1/sprites/{name}/services/{service_name}/logs', {
          params: { path: { name: spriteName, service_name: serviceName }, query },
          parseAs: 'stream',
        }),
        SERVICE_STREAM,
      ),

    // ── policy (§10) ─────────────────────────────────────────────────────────────────────────────
    /** `GET …/policy/network` → `{rules}`. @see docs/wire-reference.md §10.1 */
    getNetworkPolicy: (spriteName: string) => ok(c.http.GET('/v1/sprites/{name}/policy/network', path(spriteName))),
    /** `POST …/policy/network` `{rules}` → 204 (400 `invalid policy config`). @see docs/wire-reference.md §10.2 */
    setNetworkPolicy: async (spriteName: string, policy: Schemas['NetworkPolicy']): Promise<void> =>
      void (await ok(c.http.POST('/v1/sprites/{name}/policy/network', { ...path(spriteName), body: policy }))),
    /** `GET …/policy/privileges` (shape UNCONFIRMED). @see docs/wire-reference.md §10.3 */
    getPrivilegesPolicy: (spriteName: string) => ok(c.http.GET('/v1/sprites/{name}/policy/privileges', path(spriteName))),
    /** `POST …/policy/privileges`. @see docs/wire-reference.md §10.3 */
    setPrivilegesPolicy: (spriteName: string, policy: Schemas['PrivilegesPolicy']) =>
      ok(c.http.POST('/v1/sprites/{name}/policy/privileges', { ...path(spriteName), body: policy })),
    /** `DELETE …/policy/privileges` → 204. @see docs/wire-reference.md §10.3 */
    deletePrivilegesPolicy: async (spriteName: string): Promise<void> =>
      void (await ok(c.http.DELETE('/v1/sprites/{name}/policy/privileges', path(spriteName)))),
    /** `GET …/policy/resources` (shape UNCONFIRMED). @see docs/wire-reference.md §10.3 */
    getResourcesPolicy: (spriteName: string) => ok(c.http.GET('/v1/sprites/{name}/policy/resources', path(spriteName))),
    /** `POST …/policy/resources`. @see docs/wire-reference.md §10.3 */
    setResourcesPolicy: (spriteName: string, policy: Schemas['ResourcesPolicy']) =>
      ok(c.http.POST('/v1/sprites/{name}/policy/resources', { ...path(spriteName), body: policy })),
    /** `DELETE …/policy/resources` → 204. @see docs/wire-reference.md §10.3 */
    deleteResourcesPolicy: async (spriteName: string): Promise<void> =>
      void (await ok(c.http.DELETE('/v1/sprites/{name}/policy/resources', path(spriteName)))),

    // ── tasks (§12) ──────────────────────────────────────────────────────────────────────────────
    /** `GET …/tasks` → `{tasks}`. @see docs/wire-reference.md §12 */
    listTasks: (spriteName: string) => ok(c.http.GET('/v1/sprites/{name}/tasks', path(spriteName))),
    /** `POST …/tasks` `{name, expire?}` → 201 the task (409 when it exists). @see docs/wire-reference.md §12 */
    createTask: (spriteName: string, body: Schemas['TaskRequest']) => ok(c.http.POST('/v1/sprites/{name}/tasks', { ...path(spriteName), body })),
    /** `PUT …/tasks` `{name, expire?}` → the task, created or refreshed. @see docs/wire-reference.md §12 */
    upsertTask: (spriteName: string, body: Schemas['TaskRequest']) => ok(c.http.PUT('/v1/sprites/{name}/tasks', { ...path(spriteName), body })),
    /** `GET …/tasks/{task}` → the task. @see docs/wire-reference.md §12 */
    getTask: (spriteName: string, taskName: string) =>
      ok(c.http.GET('/v1/sprites/{name}/tasks/{task_name}', { params: { path: { name: spriteName, task_name: taskName } } })),
    /** `PUT …/tasks/{task}` `{expire?}` → the refreshed task. @see docs/wire-reference.md §12 */
    refreshTask: (spriteName: string, taskName: string, body: Schemas['TaskRefreshRequest'] = {}) =>
      ok(c.http.PUT('/v1/sprites/{name}/tasks/{task_name}', { params: { path: { name: spriteName, task_name: taskName } }, body })),
    /** `DELETE …/tasks/{task}` → 204. @see docs/wire-reference.md §12 */
    deleteTask: async (spriteName: string, taskName: string): Promise<void> =>
      void (await ok(c.http.DELETE('/v1/sprites/{name}/tasks/{task_name}', { params: { path: { name: spriteName, task_name: taskName } } }))),

    // ── emulator only (/_spritzer) ───────────────────────────────────────────────────────────────
    /** `GET /_spritzer/health` → `{status, version, engine, operations}`. Emulator only. */
    getSpritzerHealth: () => ok(c.http.GET('/_spritzer/health')),
    /** `POST /_spritzer/reset` → 204: forget every sprite. Emulator only. */
    resetSpritzer: async (): Promise<void> => void (await ok(c.http.POST('/_spritzer/reset'))),
    /** `GET /_spritzer/state` → per-sprite counters. Emulator only. */
    getSpritzerState: () => ok(c.http.GET('/_spritzer/state')),
    /** `GET /_spritzer/faults` → `{rules}`. Emulator only. */
    listFaults: () => ok(c.http.GET('/_spritzer/faults')),
    /** `POST /_spritzer/faults` `{status, operationId?, sprite?, times?, …}` → 201 the rule. Emulator only. */
    addFault: (body: Schemas['FaultRuleRequest']) => ok(c.http.POST('/_spritzer/faults', { body })),
    /** `DELETE /_spritzer/faults` → 204. Emulator only. */
    clearFaults: async (): Promise<void> => void (await ok(c.http.DELETE('/_spritzer/faults'))),
    /** `GET /_spritzer/requests` → `{requests}`: the inspector's request log, newest first. Emulator only. */
    listSpritzerRequests: () => ok(c.http.GET('/_spritzer/requests')),
  } satisfies Record<OperationId, (...args: never[]) => Promise<unknown>>;
}

/** The operation methods, by operationId. */
export type OperationMethods = ReturnType<typeof operationMethods>;

/**
 * The SDK method names that implement spec operations, one per operationId (the coverage report joins on
 * them). Read from the method table itself; building it calls no method.
 */
export const SDK_METHODS: readonly OperationId[] = Object.freeze(
  Object.keys(operationMethods({} as OperationContext)) as OperationId[],
);
