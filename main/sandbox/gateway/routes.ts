import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { Prng } from '../common/prng.js';
import type { BroadcastBook } from './broadcasts.js';
import { GatewayError } from './errors.js';
import {
  publish,
  publishPlatforms,
  type GatewayPlatform,
  type PublishKind,
  type PublishRecord,
} from './publish.js';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const broadcastBody = z.looseObject({
  name: z.string().trim().min(1, 'name is required'),
  description: z.string().nullish(),
  scheduledAt: z.string().regex(ISO_8601, 'scheduledAt must be ISO 8601 with a time zone'),
  channelId: z.string().min(1).nullish(),
  streamSource: z
    .looseObject({ type: z.string().optional(), url: z.string(), key: z.string().optional() })
    .nullish(),
  settings: z
    .looseObject({
      isPublic: z.boolean().optional(),
      chatEnabled: z.boolean().optional(),
      dvr: z.boolean().optional(),
    })
    .nullish(),
});

export interface GatewayContext {
  broadcasts: BroadcastBook;
  publishes: PublishRecord[];
  prng: Prng;
  now: () => Date;
  /** The host session is expired: streamhost calls answer AUTH_EXPIRED. */
  sessionExpired: () => boolean;
  /** A message: the host is failing and streamhost calls answer STREAMHOST_ERROR. */
  hostFailure: () => string | null;
  /** False: an older gateway without `POST …/end` (it answers 404 like any unknown route). */
  endSupported: () => boolean;
}

/** The publishing gateway (DESIGN §5.3). Auth is applied before this router. */
export function gatewayRouter(ctx: GatewayContext): Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }));

  // The live-broadcast host's session and health gate every streamhost call.
  router.use('/streamhost', (_req, _res, next) => {
    if (ctx.sessionExpired()) {
      throw new GatewayError(
        401,
        'AUTH_EXPIRED',
        'streamhost session expired',
        're-authenticate at the gateway',
      );
    }
    const failure = ctx.hostFailure();
    if (failure) throw new GatewayError(502, 'STREAMHOST_ERROR', 'streamhost API error', failure);
    next();
  });

  router.post('/streamhost/broadcasts', (req, res) => {
    const parsed = broadcastBody.safeParse(req.body ?? {});
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new GatewayError(400, 'VALIDATION_ERROR', 'invalid broadcast', details);
    }
    const view = ctx.broadcasts.create(parsed.data);
    res.json({ id: view.id, embedUrl: view.embedUrl, dashboardUrl: view.dashboardUrl, status: view.status });
  });
  router.get('/streamhost/broadcasts', (_req, res) => {
    res.json({ broadcasts: ctx.broadcasts.all() });
  });
  router.get('/streamhost/broadcasts/:id', (req, res) => {
    res.json(ctx.broadcasts.view(String(req.params.id)));
  });
  router.post('/streamhost/broadcasts/:id/end', (req, res, next) => {
    if (!ctx.endSupported()) return next();
    const view = ctx.broadcasts.end(String(req.params.id));
    res.json({ id: view.id, status: view.status });
  });
  router.delete('/streamhost/broadcasts/:id', (req, res) => {
    ctx.broadcasts.revoke(String(req.params.id));
    res.json({ success: true });
  });

  for (const platform of publishPlatforms) {
    for (const kind of ['livestream', 'upload'] as const) {
      router.post(`/${platform}/${kind}`, (req, res) => publishRoute(ctx, platform, kind, req, res));
    }
  }

  router.use((req) => {
    throw new GatewayError(404, 'NOT_FOUND', `no route ${req.method} ${req.path}`);
  });
  router.use(gatewayErrorHandler);
  return router;
}

function publishRoute(
  ctx: GatewayContext,
  platform: GatewayPlatform,
  kind: PublishKind,
  req: Request,
  res: Response,
): void {
  const body =
    typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body)
      ? (req.body as Record<string, unknown>)
      : {};
  const record: Omit<PublishRecord, 'status' | 'response'> = {
    path: req.path,
    platform,
    kind,
    body,
    at: ctx.now().toISOString(),
  };
  try {
    const result = publish(platform, kind, body, ctx.prng);
    ctx.publishes.push({ ...record, status: 200, response: result });
    res.json(result);
  } catch (error) {
    if (error instanceof GatewayError)
      ctx.publishes.push({ ...record, status: error.status, response: error.toBody() });
    throw error;
  }
}

export function gatewayErrorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (err instanceof GatewayError) {
    res.status(err.status).json(err.toBody());
    return;
  }
  if (typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.parse.failed') {
    res.status(400).json({ error: 'body is not valid JSON', code: 'VALIDATION_ERROR' });
    return;
  }
  console.error('[sandbox gateway]', err);
  res.status(500).json({ error: 'internal error', code: 'STREAMHOST_ERROR' });
}
