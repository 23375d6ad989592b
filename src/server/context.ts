/**
 * What every handler receives: the injected dependencies, the model and the fault rules. It owns the
 * `Deps` shape (the single place configuration enters the server) and the handler types (one per operationId;
 * the request view they read is http/typed.ts).
 */
import type { Response } from 'express';
import type { Logger } from 'pino';
import type { Clock } from './core/clock.ts';
import type { IdSource } from './core/ids.ts';
import type { MachineFactory } from './machines/port.ts';
import type { SpritesModel } from './model/sprites.ts';
import type { FaultRegistry } from './http/faults.ts';
import type { Credentials } from './http/auth.ts';
import type { Limits } from './core/limits.ts';
import type { ExecStreamLimits } from './config/exec-limits.ts';
import type { DataDirStore } from './store/store.ts';
import type { FrameGapClients } from './exec/frames.ts';
import type { OriginCheck } from './http/origin-check.ts';
import type { SpritePortRange } from './config/sprite-ports.ts';
import type { OperationId, RequestView } from './http/typed.ts';

/** Injected dependencies (docs/architecture.md "Dependencies are injected"). */
export interface Deps {
  clock: Clock;
  ids: IdSource;
  /** Creates every sprite's machine (the `--exec` engine). */
  machines: MachineFactory;
  logger: Logger;
  /** When set, every request needs `Authorization: Bearer <token>`; when unset any bearer token works. */
  token?: string;
  /** Organization slug of the emulated account. */
  organization: string;
  /** `--public-url`: base URL sprite URLs are built from; unset, the local path-routed URL (`SpritesModel.urlFor`). */
  publicUrl?: string;
  /** `--url-domain`: `Host: <name>.<urlDomain>` reaches sprite `<name>` (src/server/url/sprite-url.ts); default `localhost`. */
  urlDomain?: string;
  /**
   * `--sprite-url`: the form of a sprite's `url` without `publicUrl`: `port` (default; a port of its own on spritzer's
   * address, url/sprite-origins.ts) or `path` (`<address>/s/<name>`, on spritzer's own origin).
   */
  spriteUrlForm?: 'port' | 'path';
  /** `--sprite-ports`: where the `port` form's ports come from (default `auto`, the kernel's choice). */
  spritePorts?: SpritePortRange;
  /** `--allow-origin`: browser origins besides spritzer's own that may act on the API (`*`: any; http/origin-check.ts). */
  allowOrigins?: readonly string[];
  /** Validate responses against the spec (off in production). */
  validateResponses: boolean;
  /** Bounds on paths, watches, sprite fields, disk, fault rules and services (`src/server/core/limits.ts`, docs/limits.md). */
  limits: Limits;
  /** Largest JSON request body in bytes (default 1 MiB, `--max-json-body`; docs/limits.md). */
  maxJsonBodyBytes?: number;
  /** Bounds of exec's stdin and output streams; unset fields take `DEFAULT_EXEC_STREAM_LIMITS` (docs/limits.md). */
  execLimits?: Partial<ExecStreamLimits>;
  /** Ms between HTTP exec output frames (default `HTTP_EXEC_FRAME_GAP_MS`, `--http-exec-frame-gap`; exec/frames.ts). */
  httpExecFrameGapMs?: number;
  /** Who gets that gap: `fetch` (default; the User-Agent of a fetch-based JS runtime) or `all` (`--http-exec-frame-gap-clients`). */
  httpExecFrameGapClients?: FrameGapClients;
  /** Most bytes of a request line + header fields (default 1 MiB, `--max-header-size`; http/oversize.ts, docs/limits.md). */
  maxHeaderBytes?: number;
  /** `--data-dir` persistence (src/server/store); absent: state lives in memory only and nothing is saved. */
  store?: DataDirStore;
}

/** Shared state handed to handlers. */
export interface AppContext {
  deps: Deps;
  model: SpritesModel;
  faults: FaultRegistry;
  /** Accepted tokens (the `--token` value and minted ones). */
  credentials: Credentials;
  /** Which browser pages may act on the API (WebSockets, state-changing REST calls). */
  originCheck: OriginCheck;
  /** operationIds that have a handler (health, coverage, 501s). */
  implemented: Set<string>;
}

/**
 * The handler of operation `K`, registered under its operationId: it reads the typed view of the validated request
 * (`{path, query, body, req}`), answers on `res`, and may return a promise the dispatcher awaits. `K` is
 * contravariant: a handler written for several operations (`HandlerFor<'startService' | 'restartService'>`) serves
 * each of them.
 */
export type HandlerFor<in K extends OperationId> = (request: RequestView<K>, res: Response, ctx: AppContext) => unknown | Promise<unknown>;

/** Handlers by operationId: a key that is not an operationId of the spec is a type error. */
export type HandlerMap = { [K in OperationId]?: HandlerFor<K> };
