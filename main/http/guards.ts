import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { verifyEspoSignature } from './espo-signature.js';
import { AppError } from '../kernel/app-error.js';

/** Constant-time comparison; hashing first makes the lengths equal. */
export function sameSecret(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The bridge key from `Authorization: Bearer`, `X-Api-Key`, or (where allowed) `?key=`. */
export function presentedKey(req: Request, allowQuery: boolean): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1];
  const header = req.get('x-api-key');
  const query = allowQuery && typeof req.query.key === 'string' ? req.query.key : undefined;
  return bearer ?? header ?? query;
}

export function keyGuard(
  apiKey: string,
  options: { allowQueryKeyOn?: readonly string[] } = {},
): RequestHandler {
  const queryPaths = new Set(options.allowQueryKeyOn ?? []);
  return (req, _res, next) => {
    const key = presentedKey(req, queryPaths.has(req.path));
    next(key !== undefined && sameSecret(key, apiKey) ? undefined : AppError.unauthorized());
  };
}

export interface RawBodyRequest extends Request {
  rawBody?: Buffer;
  /** Set by the webhook guard: which webhook id signed it, or "bridge-key". */
  signedBy?: string;
}

/**
 * DESIGN §4: with CRM_WEBHOOK_SECRETS set a webhook must carry a valid EspoCRM signature;
 * without, the bridge key in X-Api-Key or ?key=. `acceptKeyToo` lets /webhooks/test be
 * called from the dashboard with the key even when signatures are on.
 */
export function webhookGuard(
  apiKey: string,
  secrets: () => readonly string[],
  options: { acceptKeyToo?: (req: Request) => boolean } = {},
): RequestHandler {
  return (req: RawBodyRequest, _res, next) => {
    const configured = secrets();
    const key = presentedKey(req, true);
    const keyOk = key !== undefined && sameSecret(key, apiKey);
    if (configured.length === 0 || (keyOk && options.acceptKeyToo?.(req))) {
      if (!keyOk) return next(AppError.unauthorized('webhook needs the bridge key in X-Api-Key or ?key='));
      req.signedBy = 'bridge-key';
      return next();
    }
    const check = verifyEspoSignature(
      req.rawBody ?? Buffer.alloc(0),
      { signature: req.get('signature'), xSignature: req.get('x-signature') },
      configured,
    );
    if (!check.ok) return next(AppError.unauthorized(check.reason));
    req.signedBy = check.webhookId;
    next();
  };
}

/**
 * Against DNS rebinding: when bound to loopback, a browser request must name a loopback
 * host (or an allowed origin's host). Webhooks are exempt: they come through tunnels with
 * the public host name and carry their own authentication.
 */
export function hostGuard(boundHost: string, allowedOrigins: readonly string[]): RequestHandler {
  const loopback = ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(boundHost);
  const allowedHosts = new Set(allowedOrigins.map((origin) => new URL(origin).hostname));
  return (req, _res, next) => {
    if (!loopback || req.path.startsWith('/webhooks/')) return next();
    const hostname = (req.hostname || '').replace(/^\[|\]$/g, '');
    if (['127.0.0.1', 'localhost', '::1'].includes(hostname) || allowedHosts.has(hostname)) return next();
    next(
      new AppError(
        'forbidden',
        'UNAUTHORIZED',
        `host "${req.hostname}" is not allowed (bridge bound to ${boundHost})`,
      ),
    );
  };
}
