/**
 * `createApp(deps)`: Express 5 + express-openapi-validator over spec/openapi.yaml, dispatching every request
 * to the handler registered under its operationId, plus the WebSocket upgrade router. Validation failures are
 * the documented 400 envelope; unknown paths 404 JSON; a spec operation without a handler 501 naming it.
 * It owns wiring only: handlers live in routes/, shapes in http/wire.ts, state in model/.
 */
import express, { type Request, type Response } from 'express';
import { projectPath } from './runtime/project-root.ts';
import { type AppContext, type Deps, type HandlerFor, type HandlerMap } from './context.ts';
import { SPRITE_VERSION } from '../protocol/sprite-tree.ts';
import { requestView, type OperationId } from './http/typed.ts';
import { SpritesModel } from './model/sprites.ts';
import { FaultRegistry, faultResponse } from './http/faults.ts';
import { Credentials, UNAUTHORIZED, inSpriteAdmits, inSpriteScopeOf, scopeOfPath } from './http/auth.ts';
import { errorMiddleware, sendApiError } from './http/errors.ts';
import { DEFAULT_MAX_JSON_BODY_BYTES, refuseDeepJson } from './http/json-depth.ts';
import { malformedPathBody, malformedQueryBody } from './http/request-target.ts';
import { headAsGet } from './http/head.ts';
import { createUpgradeHandler, WS_OPERATIONS } from './ws/router.ts';
import { openApiValidator } from './http/validator/index.ts';
import { execBodyLimit } from './http/exec-body.ts';
import { refuseDeclaredOversize } from './http/early-413.ts';
import { rawBodyRoutes } from './http/raw-body.ts';
import { bodyStage } from './http/body-stage.ts';
import { requestLog } from './http/request-log.ts';
import { parseQuery } from './http/query.ts';
import { execStreamLimits } from './config/exec-limits.ts';
import { spriteHandlers } from './routes/sprites.ts';
import { checkpointHandlers } from './routes/checkpoints.ts';
import { fsHandlers } from './routes/fs.ts';
import { execHandlers } from './routes/exec.ts';
import { adminHandlers } from './routes/admin.ts';
import { serviceHandlers } from './routes/services.ts';
import { policyHandlers } from './routes/policy.ts';
import { taskHandlers } from './routes/tasks.ts';
import { createSpriteRelay, createSpriteUrl, type SpriteRelay } from './url/sprite-url.ts';
import { SpriteOrigins } from './url/sprite-origins.ts';
import { OriginCheck, SAFE_METHODS } from './http/origin-check.ts';
import { DEFAULT_MAX_HEADER_BYTES } from './http/oversize.ts';
import { createInSpriteApi, withInSpriteApi } from './url/in-sprite-api.ts';
import { inspectorHandlers, mountInspector, wrapUpgrade } from './inspector/index.ts';

/** Absolute path of the OpenAPI document the server validates against. */
export const OPENAPI_PATH = projectPath('spec/openapi.yaml');

/** All handlers by operationId. */
export const HANDLERS: HandlerMap = {
  ...spriteHandlers,
  ...checkpointHandlers,
  ...fsHandlers,
  ...execHandlers,
  ...adminHandlers,
  ...serviceHandlers,
  ...policyHandlers,
  ...taskHandlers,
  ...inspectorHandlers,
};

/** The assembled application. */
export interface SpritzerApp {
  app: express.Express;
  ctx: AppContext;
  /** `upgrade` listener for the http.Server. */
  upgrade: ReturnType<typeof createUpgradeHandler>['handle'];
  /** The sprites' own ports (`--sprite-url port`, the default; absent with `path` or `--public-url`); `startServer` activates it. */
  origins?: SpriteOrigins;
  /** Ends sockets, commands and services, and closes the sprites' ports. */
  close(): Promise<void>;
  /** Sends every open WebSocket a close frame with `code` (graceful shutdown, src/server/shutdown.ts); resolves once all closed. */
  closeSockets(code: number): Promise<void>;
}

type OpenApiRequest = Request & { openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> } };

/** Builds the app from injected dependencies (docs/architecture.md "Dependencies are injected"). */
export function createApp(deps: Deps): SpritzerApp {
  // `/.sprite/api.sock` inside a sprite reaches this same app (src/server/url/in-sprite-api.ts).
  const inSpriteApi = createInSpriteApi(() => app);
  // Each sprite's url is a port of its own unless asked otherwise; its listeners hand everything to the relay.
  let relay: SpriteRelay | undefined;
  const origins =
    deps.publicUrl === undefined && deps.spriteUrlForm !== 'path'
      ? new SpriteOrigins({ relay: () => relay!, range: deps.spritePorts ?? 'auto', logger: deps.logger, maxHeaderBytes: deps.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES })
      : undefined;
  const model = new SpritesModel({
    clock: deps.clock,
    ids: deps.ids,
    machines: withInSpriteApi(deps.machines, inSpriteApi.serve),
    organization: deps.organization,
    publicUrl: deps.publicUrl,
    limits: deps.limits,
    origins,
  });
  const ctx: AppContext = {
    deps,
    model,
    faults: new FaultRegistry(deps.limits.faultRulesMax),
    credentials: new Credentials(deps.token, deps.organization),
    originCheck: new OriginCheck({ localBase: () => model.localBase, publicUrl: deps.publicUrl, allow: deps.allowOrigins }),
    implemented: new Set([...Object.keys(HANDLERS), ...WS_OPERATIONS]),
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', parseQuery);
  // Paths match case-sensitively (as the real Go servers do), so the token scope check (http/auth.ts) and routing
  // agree on every path: a differently cased path can neither slip past the scope nor reach another route.
  app.set('case sensitive routing', true);
  // No ETags (a SHA-1 per JSON body that no SDK reads).
  app.set('etag', false);
  // The sprite URL (`/s/<name>/…`, `Host: <name>.<url-domain>`) is proxied to the sprite before any API handling,
  // and before the inspector's `/` redirect and UI, which belong to spritzer's own host only.
  relay = createSpriteRelay(ctx);
  const spriteUrl = createSpriteUrl(relay, deps.urlDomain);
  // The inspector's request log comes first, so it sees every request; then one cheap line per request
  // (http/request-log.ts) and the sprite URL (inspector/index.ts).
  // A request from inside a sprite never reaches a sprite URL (it is pinned to its own sprite's API).
  const inspectorLog = mountInspector(app, ctx, [
    requestLog(deps.logger),
    (req, res, next) => void ((inSpriteScopeOf(req) === undefined && spriteUrl.request(req, res)) || next()),
  ]);
  // One layer for the cheap checks every API request passes (each Express layer costs a router step): the
  // Sprite-Version header, the bearer token, broken percent-encoding.
  app.use((req, res, next) => {
    res.setHeader('Sprite-Version', SPRITE_VERSION);
    // A browser page of another origin (a sprite's own, any local site) may not change anything (http/origin-check.ts).
    if (!SAFE_METHODS.has(req.method)) {
      const refused = ctx.originCheck.refusal(req);
      if (refused) return sendApiError(res, 403, refused);
    }
    // /_spritzer: health is open; the rest needs the bearer token only when the server runs with --token.
    const open = req.path.startsWith('/_spritzer/') && (req.path === '/_spritzer/health' || deps.token === undefined);
    // A request from inside a sprite (its API socket) carries no token: it is admitted to its own sprite only.
    const inSprite = inSpriteScopeOf(req);
    if (inSprite !== undefined) {
      if (!inSpriteAdmits(inSprite, req.path, req.method)) return sendApiError(res, 401, UNAUTHORIZED);
    } else if (!open) {
      const flyV1 = /^\/v1\/organizations\/[^/]+\/tokens\/?$/.test(req.path);
      if (!ctx.credentials.accepts(req.headers.authorization, flyV1 ? 'FlyV1' : 'Bearer', scopeOfPath(req.path, deps.organization))) {
        return sendApiError(res, 401, UNAUTHORIZED);
      }
    }
    // Broken percent-encoding in the path or a query parameter: the same 400 the upgrade router answers (http/request-target.ts).
    const query = req.originalUrl.indexOf('?');
    const malformed = malformedPathBody(req.path) ?? (query < 0 ? undefined : malformedQueryBody(req.originalUrl.slice(query)));
    if (malformed) return sendApiError(res, 400, malformed);
    next();
  });
  // --data-dir: a mutating request's effect is saved before any byte of its response (src/server/store).
  if (deps.store) app.use(deps.store.middleware());
  // fs/write and exec bodies are bytes whatever their Content-Type, and no body at all is an empty one
  // (docs/fidelity.md "Choices between disagreeing sources": a raw-body request with no body).
  app.use(rawBodyRoutes());
  // Body parsers as one layer, skipped by requests without a body (http/body-stage.ts).
  app.use(
    bodyStage([
      // A declared body over its limit: 413 before any byte of it is read (http/early-413.ts).
      refuseDeclaredOversize({ maxJsonBodyBytes: deps.maxJsonBodyBytes ?? DEFAULT_MAX_JSON_BODY_BYTES, maxStdinBytes: execStreamLimits(deps.execLimits).maxStdinBytes }),
      express.json({
        limit: deps.maxJsonBodyBytes ?? DEFAULT_MAX_JSON_BODY_BYTES, // more → 413 in the envelope (docs/limits.md)
        strict: false,
        type: ['application/json', 'application/*+json'],
        verify: refuseDeepJson(), // too deep → 400 before JSON.parse runs
      }),
      execBodyLimit(execStreamLimits(deps.execLimits)),
      express.raw({ limit: '1gb', type: 'application/octet-stream' }),
    ]),
  );
  app.use(headAsGet(OPENAPI_PATH));
  app.use(openApiValidator(OPENAPI_PATH, { validateResponses: deps.validateResponses })); // http/validator/: why each adjustment
  app.use(async (req: OpenApiRequest, res: Response) => {
    const operationId = req.openapi?.schema?.operationId;
    if (!operationId) return sendApiError(res, 404, { error: 'not found', message: `no route for ${req.method} ${req.path}` });
    // Express resets req.params for each middleware layer; the validator's path parameters are the truth.
    const pathParams = req.openapi?.pathParams ?? {};
    req.params = { ...pathParams };
    const fault = req.path.startsWith('/_spritzer/') ? undefined : ctx.faults.take(operationId, pathParams.name);
    if (fault) {
      const answer = faultResponse(fault, deps.clock.now());
      res.set(answer.headers);
      return sendApiError(res, answer.status, answer.body);
    }
    // The validator found the operation in the spec, so its id is one of the generated `operations`; the handler
    // registered under it gets the typed view built for that same id (http/typed.ts).
    const op = operationId as OperationId;
    const handler = HANDLERS[op] as HandlerFor<OperationId> | undefined;
    if (!handler) return sendApiError(res, 501, { error: 'not_implemented', message: `operation ${operationId} is not implemented` });
    await handler(requestView(op, req), res, ctx);
  });
  app.use(errorMiddleware(deps.logger));

  const upgrader = createUpgradeHandler(ctx);
  return {
    app,
    ctx,
    origins,
    upgrade: wrapUpgrade(inspectorLog, (req, socket, head) => void (spriteUrl.upgrade(req, socket, head) || upgrader.handle(req, socket, head))),
    closeSockets: (code) => upgrader.closeWith(code),
    async close() {
      await upgrader.closeAll();
      inSpriteApi.close();
      await model.clear({ keepDisks: true });
      await origins?.close();
    },
  };
}
