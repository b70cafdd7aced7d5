import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cors from 'cors';
import express from 'express';
import type { Logger } from 'pino';
import { activityEvent } from '../../shared/activity-events.js';
import { streamEvents } from '../../shared/api/activity.js';
import { getOpenApi } from '../../shared/api/health.js';
import type { AreaModule, Caller } from '../areas/area.js';
import type { BridgeConfig } from '../config/config.js';
import type { ActivityLog } from '../kernel/activity/activity-log.js';
import { AppError } from '../kernel/app-error.js';
import type { StorageState } from '../kernel/storage-state.js';
import { requireJsonBodies } from './body.js';
import { clientAddress } from './client-address.js';
import { dashboardFiles } from './dashboard-files.js';
import { EventStreamHub } from './event-stream.js';
import { hostGuard, keyGuard, presentedKey, sameSecret, webhookGuard } from './guards.js';
import { defaultHttpLimits, type HttpLimits } from './http-server.js';
import { requestLog } from './request-log.js';
import { securityHeaders } from './security-headers.js';
import { series } from './series.js';
import { UnverifiedBodies } from './unverified-bodies.js';
import { createMount } from './mount.js';
import { buildOpenApi } from './openapi.js';
import { registeredContracts } from './route.js';
import { errorHandler } from './send-error.js';

export interface HttpDeps {
  config: Readonly<BridgeConfig>;
  logger: Logger;
  activity: ActivityLog;
  version: string;
  /** Told when a request met a full disk (GET /health says so). */
  storage?: StorageState;
}

/**
 * The Express app: middleware (logs, Host check, headers, CORS), every area's routes behind
 * the guard its contract names (each reads its body only after its guard: body.ts), and what
 * http/ owns itself: /openapi.json, the /events stream, the dashboard's files, 405 for a known
 * path asked with another method, and the error envelope.
 */
export function createHttpApp(
  deps: HttpDeps,
  areas: readonly AreaModule[],
  options: { dashboardDir?: string; limits?: HttpLimits } = {},
) {
  const { config, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);

  // The dashboard's files come before the API's middleware (CORS, the JSON check), which they never need.
  const dashboardDir = options.dashboardDir ?? defaultDashboardDir();
  const dashboard: express.RequestHandler = existsSync(path.join(dashboardDir, 'index.html'))
    ? dashboardFiles(dashboardDir)
    : (req, res, next) => {
        if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path !== '/') return next();
        res
          .type('text/plain')
          .send('Studio Bridge is running. The dashboard is not built: run `npm run build`.');
      };
  const corsHeaders = cors({
    origin: (origin, callback) =>
      callback(null, origin === undefined ? false : config.corsOrigins.includes(origin)),
    allowedHeaders: ['Authorization', 'X-Api-Key', 'Content-Type', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
  // Without an Origin header cors() adds nothing (its origin answer is false); CRMs and scripts send none.
  const corsIfOrigin: express.RequestHandler = (req, res, next) =>
    req.headers.origin === undefined ? next() : corsHeaders(req, res, next);
  // In order, as one router layer (series.ts): every request passes all of them.
  app.use(
    series(
      requestLog(logger),
      hostGuard(config.host, config.corsOrigins),
      securityHeaders(),
      dashboard,
      corsIfOrigin,
      requireJsonBodies,
    ),
  );

  // Routes go straight into the app's own router: a nested one cost every request a second dispatch.
  const router = app.router;
  const identify = (req: express.Request): Caller => {
    const key = presentedKey(req, false);
    if (key === undefined) return 'anonymous';
    return sameSecret(key, config.apiKey) ? 'key' : 'wrong-key';
  };
  const limits = options.limits ?? defaultHttpLimits;
  const clientOf = (req: IncomingMessage) => clientAddress(req, config.trustProxyHops);
  const { mount, mountStream, answerWrongMethods } = createMount(
    router,
    {
      key: { beforeBody: keyGuard(config.apiKey) },
      keyInQuery: { beforeBody: keyGuard(config.apiKey, { allowQuery: true }) },
      webhook: webhookGuard(config.apiKey, () => config.webhookSecrets, {
        acceptKeyToo: (req) => req.path === '/webhooks/test',
      }),
    },
    identify,
    {
      places: new UnverifiedBodies({
        perClient: limits.maxUnverifiedPerClient,
        total: limits.maxUnverified,
        bytes: limits.maxUnverifiedBytes,
      }),
      pace: {
        minBytesPerSecond: limits.unverifiedBodyMinBytesPerSecond,
        graceMs: limits.unverifiedBodyGraceMs,
        deadlineMs: limits.unverifiedBodyDeadlineMs,
      },
      clientOf,
    },
  );
  const events = new EventStreamHub(deps.activity, {
    maxUnsentBytes: limits.sseClientBufferBytes,
    maxReadersPerClient: limits.maxEventReadersPerClient,
    maxReaders: limits.maxEventReaders,
    clientOf,
    logger,
  });
  mount(getOpenApi, () =>
    buildOpenApi(registeredContracts, deps.version, new Map([[streamEvents, activityEvent]])),
  );
  mountStream(streamEvents, (req, res) => events.attach(req, res));
  for (const area of areas) area.routes?.(mount);
  answerWrongMethods();

  app.use((req, _res, next) => next(AppError.notFound(`no route ${req.method} ${req.path}`)));
  app.use(errorHandler(logger, deps.storage));
  return Object.assign(app, { closeEventStreams: () => events.close() });
}

/** dist/renderer, whether running from dist/main (built) or main/ (tsx). */
export function defaultDashboardDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = path.resolve(here, '..', '..');
  return path.basename(root) === 'dist' ? path.join(root, 'renderer') : path.join(root, 'dist', 'renderer');
}
