import { hash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { BodyCheck, RawBodyRequest } from './body.js';
import { espoSignatureCheck, signatureHeaderShape } from './espo-signature.js';
import { AppError } from '../kernel/app-error.js';
import { isLoopbackHost } from './client-address.js';

const sha256 = (text: string) => hash('sha256', text, 'buffer');

/** The last expected secret's digest: it is the same on every request (the bridge key). */
let expectedCache: { secret: string; digest: Buffer } | null = null;

/** Constant-time comparison; hashing first makes the lengths equal. */
export function sameSecret(presented: string, expected: string): boolean {
  if (expectedCache?.secret !== expected) expectedCache = { secret: expected, digest: sha256(expected) };
  return timingSafeEqual(sha256(presented), expectedCache.digest);
}

/** The bridge key from `Authorization: Bearer`, `X-Api-Key`, or (where allowed) `?key=`. */
export function presentedKey(req: Request, allowQuery: boolean): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1];
  const header = req.get('x-api-key');
  const query = allowQuery && typeof req.query.key === 'string' ? req.query.key : undefined;
  return bearer ?? header ?? query;
}

/** `allowQuery`: also `?key=`, for the routes whose contract takes it (what cannot send headers). */
export function keyGuard(apiKey: string, options: { allowQuery?: boolean } = {}): RequestHandler {
  const allowQuery = options.allowQuery ?? false;
  return (req, _res, next) => {
    const key = presentedKey(req, allowQuery);
    next(key !== undefined && sameSecret(key, apiKey) ? undefined : AppError.unauthorized());
  };
}

/**
 * What a route's `auth` asks for, in two steps around reading the body: `beforeBody` refuses
 * whatever can be refused from the request line and headers alone (so an unauthenticated
 * request costs no body read and no parse); `bodyCheck`, for a request its headers did not
 * authenticate, gives what checks the raw bytes as they arrive (a signature), still before they
 * are parsed; null when the headers were enough.
 */
export interface RouteGuard {
  beforeBody: RequestHandler;
  bodyCheck?: (req: RawBodyRequest) => BodyCheck | null;
}

/**
 * DESIGN §4: with CRM_WEBHOOK_SECRETS set a webhook must carry a valid EspoCRM signature;
 * without, the bridge key in X-Api-Key or ?key=. `acceptKeyToo` lets /webhooks/test be
 * called from the dashboard with the key even when signatures are on.
 *
 * The key is checked before the body is read. A signature cannot be: it is a MAC of the raw
 * body. So before the body only its shape is checked (a Signature or X-Signature header that
 * decodes to "<webhookId>:<MAC of the right length>"); a request without one is refused
 * unread. One with a well-formed header has its body read as an unverified one (body.ts: a
 * place among so many, a minimum rate, a deadline) with the MAC computed as it streams in, and
 * verified before JSON.parse runs: a forged header costs one bounded read and one HMAC, never
 * a parse or a stored delivery.
 */
export function webhookGuard(
  apiKey: string,
  secrets: () => readonly string[],
  options: { acceptKeyToo?: (req: Request) => boolean } = {},
): RouteGuard {
  const signatureHeaders = (req: Request) => ({
    signature: req.get('signature'),
    xSignature: req.get('x-signature'),
  });
  return {
    beforeBody: (req: RawBodyRequest, _res, next) => {
      const keyOnly = secrets().length === 0;
      // The key is looked for only where it may stand in for a signature.
      if (keyOnly || options.acceptKeyToo?.(req)) {
        const key = presentedKey(req, true);
        const keyOk = key !== undefined && sameSecret(key, apiKey);
        if (!keyOk && keyOnly)
          return next(AppError.unauthorized('webhook needs the bridge key in X-Api-Key or ?key='));
        if (keyOk) {
          req.signedBy = 'bridge-key';
          return next();
        }
      }
      const shape = signatureHeaderShape(signatureHeaders(req));
      next(shape.ok ? undefined : AppError.unauthorized(shape.reason));
    },
    bodyCheck: (req) => {
      if (req.signedBy === 'bridge-key') return null;
      const check = espoSignatureCheck(signatureHeaders(req), secrets());
      return {
        update: (chunk) => check.update(chunk),
        finish: () => {
          const verdict = check.result();
          if (!verdict.ok) throw AppError.unauthorized(verdict.reason);
          req.signedBy = verdict.webhookId;
        },
      };
    },
  };
}

/**
 * Against DNS rebinding: when bound to a loopback address (any of 127.0.0.0/8, ::1, or
 * localhost), a request must name a loopback host (or an allowed origin's host). Webhooks are
 * exempt: they come through tunnels with the public host name and carry their own
 * authentication. Bound to 0.0.0.0 (the LAN) there is no check: the LAN's names for the
 * machine are not known here.
 */
export function hostGuard(boundHost: string, allowedOrigins: readonly string[]): RequestHandler {
  const loopback = isLoopbackHost(boundHost);
  const allowedHosts = new Set(allowedOrigins.map((origin) => new URL(origin).hostname));
  return (req, _res, next) => {
    if (!loopback || req.path.startsWith('/webhooks/')) return next();
    const hostname = req.hostname || '';
    if (isLoopbackHost(hostname) || allowedHosts.has(hostname)) return next();
    next(
      new AppError(
        'forbidden',
        'UNAUTHORIZED',
        `host "${req.hostname}" is not allowed (bridge bound to ${boundHost})`,
      ),
    );
  };
}
