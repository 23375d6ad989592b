/**
 * `createApp(deps)`: Express 5 + express-openapi-validator over spec/openapi.yaml, dispatching every request
 * to the handler registered under its operationId, plus the WebSocket upgrade router. Validation failures are
 * the documented 400 envelope; unknown paths 404 JSON; a spec operation without a handler 501 naming it.
 * It owns wiring only: handlers live in routes/, shapes in http/wire.ts, state in model/.
 */
import express, { type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { pinoHttp } from 'pino-http';
import { fileURLToPath } from 'node:url';
import { SPRITE_VERSION, type AppContext, type Deps, type HandlerMap } from './context.ts';
import { SpritesModel } from './model/sprites.ts';
import { FaultRegistry, faultResponse } from './http/faults.ts';
import { Credentials, UNAUTHORIZED, scopeOfPath } from './http/auth.ts';
import { errorMiddleware, sendApiError } from './http/errors.ts';
import { DEFAULT_MAX_JSON_BODY_BYTES, refuseDeepJson } from './http/json-depth.ts';
import { malformedPathBody } from './http/request-target.ts';
import { headAsGet } from './http/head.ts';
import { createUpgradeHandler, WS_OPERATIONS } from './ws/router.ts';
import { execBodyLimit } from './http/exec-body.ts';
import { execStreamLimits } from './exec-limits.ts';
import { spriteHandlers } from './routes/sprites.ts';
import { checkpointHandlers } from './routes/checkpoints.ts';
import { fsHandlers } from './routes/fs.ts';
import { execHandlers } from './routes/exec.ts';
import { adminHandlers } from './routes/admin.ts';
import { serviceHandlers } from './routes/services.ts';
import { policyHandlers } from './routes/policy.ts';
import { taskHandlers } from './routes/tasks.ts';
import { inspectorHandlers, mountInspector, wrapUpgrade } from './inspector/index.ts';

/** Absolute path of the OpenAPI document the server validates against. */
export const OPENAPI_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

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
  /** Ends sockets, commands and services. */
  close(): Promise<void>;
}

type OpenApiRequest = Request & { openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> } };

/** Builds the app from injected dependencies (docs/architecture.md "Dependencies are injected"). */
export function createApp(deps: Deps): SpritzerApp {
  const model = new SpritesModel({
    clock: deps.clock,
    ids: deps.ids,
    machines: deps.machines,
    organization: deps.organization,
    publicUrl: deps.publicUrl,
    limits: deps.limits,
  });
  const ctx: AppContext = {
    deps,
    model,
    faults: new FaultRegistry(deps.limits.faultRulesMax),
    credentials: new Credentials(deps.token, deps.organization),
    implemented: new Set([...Object.keys(HANDLERS), ...WS_OPERATIONS]),
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  // Paths match case-sensitively (as the real Go servers do), so the mint check and routing agree (issue 16).
  app.set('case sensitive routing', true);
  // The inspector (browser UI, request log) comes first, so the log sees every request (inspector/index.ts).
  const requestLog = mountInspector(app, ctx);

  app.use(
    pinoHttp({
      logger: deps.logger,
      // One short line per request; never log headers (they carry bearer tokens).
      serializers: {
        req: (r: { method: string; url: string }) => ({ method: r.method, url: r.url }),
        res: (r: { statusCode: number }) => ({ statusCode: r.statusCode }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader('Sprite-Version', SPRITE_VERSION);
    next();
  });
  app.use((req, res, next) => {
    // /_spritzer: health is open; the rest needs the bearer token only when the server runs with --token.
    if (req.path.startsWith('/_spritzer/') && (req.path === '/_spritzer/health' || deps.token === undefined)) return next();
    const flyV1 = /^\/v1\/organizations\/[^/]+\/tokens\/?$/.test(req.path);
    if (!ctx.credentials.accepts(req.headers.authorization, flyV1 ? 'FlyV1' : 'Bearer', scopeOfPath(req.path, deps.organization))) {
      return sendApiError(res, 401, UNAUTHORIZED);
    }
    next();
  });
  app.use((req, res, next) => {
    // Broken percent-encoding in the path: the same 400 the upgrade router answers (http/request-target.ts).
    const malformed = malformedPathBody(req.path);
    if (malformed) return sendApiError(res, 400, malformed);
    next();
  });
  app.use(
    express.json({
      limit: deps.maxJsonBodyBytes ?? DEFAULT_MAX_JSON_BODY_BYTES, // more → 413 in the envelope (docs/limits.md)
      strict: false,
      type: ['application/json', 'application/*+json'],
      verify: refuseDeepJson(), // too deep → 400 before JSON.parse runs
    }),
  );
  app.use(execBodyLimit(execStreamLimits(deps.execLimits)));
  app.use(express.raw({ limit: '1gb', type: 'application/octet-stream' }));
  app.use(headAsGet(OPENAPI_PATH));
  app.use(
    OpenApiValidator.middleware({
      apiSpec: OPENAPI_PATH,
      validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false },
      validateResponses: deps.validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      validateFormats: true,
    }),
  );
  app.use(async (req: OpenApiRequest, res: Response) => {
    const operationId = req.openapi?.schema?.operationId;
    if (!operationId) return sendApiError(res, 404, { error: 'not found', message: `no route for ${req.method} ${req.path}` });
    // Express resets req.params for each middleware layer; the validator's path parameters are the truth.
    req.params = { ...(req.openapi?.pathParams ?? {}) };
    const fault = req.path.startsWith('/_spritzer/') ? undefined : ctx.faults.take(operationId, req.params?.name as string | undefined);
    if (fault) {
      const answer = faultResponse(fault, deps.clock.now());
      res.set(answer.headers);
      return sendApiError(res, answer.status, answer.body);
    }
    const handler = HANDLERS[operationId];
    if (!handler) return sendApiError(res, 501, { error: 'not_implemented', message: `operation ${operationId} is not implemented` });
    await handler(req, res, ctx);
  });
  app.use(errorMiddleware(deps.logger));

  const upgrader = createUpgradeHandler(ctx);
  return {
    app,
    ctx,
    upgrade: wrapUpgrade(requestLog, upgrader.handle),
    async close() {
      upgrader.closeAll();
      await model.clear();
    },
  };
}
