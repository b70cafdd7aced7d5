import type { ErrorRequestHandler, Request } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ErrorCode, ErrorEnvelope, PeerFailure } from '../../shared/api/contract.js';
import { PeerError } from '../peers/peer-error.js';
import { peerAppError } from '../peers/peer-app-error.js';
import { peerFailureIn } from '../peers/peer-failure.js';
import { AppError, type AppErrorKind } from '../kernel/app-error.js';
import { StorageState } from '../kernel/storage-state.js';

/** The one table from what went wrong to the HTTP status (DESIGN §2, §4). */
const statusOfKind: Record<AppErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'unsupported-media': 415,
  'rate-limit': 429,
  peer: 500,
  internal: 500,
  unavailable: 503,
  // 507 Insufficient Storage on the API; a webhook gets 503 (httpStatusOf).
  'storage-full': 507,
};

/**
 * Kinds that may heal by themselves. EspoCRM retries a webhook answered 503 and drops one
 * answered 507 (or most 4xx) for good, so on a webhook route these are 503 (DESIGN §4).
 */
const healsByItself: ReadonlySet<AppErrorKind> = new Set(['storage-full']);

/**
 * Spec codes that pin their status whatever the kind. Spec §7 makes a host session that
 * expired a route failure (500); the dashboard keeps 401 for "your bridge key is wrong".
 */
const pinnedStatus: Partial<Record<ErrorCode, number>> = {
  AUTH_EXPIRED: 500,
  // A known path asked with another method: http/ alone says it (mount.ts), with an Allow header.
  METHOD_NOT_ALLOWED: 405,
  // A body too slow for its deadline or rate (body.ts): EspoCRM retries a 408, and drops a 400.
  REQUEST_TIMEOUT: 408,
  // A byte range past the end of a file (send-file.ts).
  RANGE_NOT_SATISFIABLE: 416,
  CHANNEL_NOT_FOUND: 404,
  RTMP_INVALID: 400,
  // The gateway has no End route (DESIGN §5.3): not something a retry heals.
  END_NOT_SUPPORTED: 501,
};

export function httpStatusOf(error: AppError, route: 'api' | 'webhook' = 'api'): number {
  if (route === 'webhook' && healsByItself.has(error.kind)) return 503;
  return pinnedStatus[error.code] ?? statusOfKind[error.kind];
}

export function httpHeadersOf(error: AppError): Record<string, string> {
  return error.retryAfterS === undefined ? {} : { 'Retry-After': String(error.retryAfterS) };
}

/** "post: must be a string; platforms.0: invalid option ..." — one clause per zod issue. */
export function describeZodIssues(issues: readonly z.core.$ZodIssue[], root?: string): string {
  return issues
    .map((issue) => {
      const path = [root, ...issue.path.map(String)].filter(Boolean).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

export function zodDetails(issues: readonly z.core.$ZodIssue[], root?: string) {
  return issues.map((issue) => ({
    field: [root, ...issue.path.map(String)].filter(Boolean).join('.'),
    rule: issue.code,
    message: issue.message,
  }));
}

/** An unauthenticated or refused body is drained up to this much to keep the connection; past it (or unsized) the connection closes. */
const DRAIN_UNREAD_BODY_BYTES = 64 * 1024;

/** Maps any error to the envelope of DESIGN §4; logs the inner error, sends the public message. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) {
    // An area that says "the store failed" about a full disk: the caller is told it may heal.
    return error.code === 'DB_ERROR' && StorageState.isFull(error.cause)
      ? AppError.storageFull(error.cause)
      : error;
  }
  // The router could not decode a path parameter: "Failed to decode param '%ff'".
  if (error instanceof URIError) {
    const escaped = /'(.*)'/.exec(error.message)?.[1] ?? '';
    return AppError.validation(
      `path: "${escaped}" is not valid percent-encoding ("%" then two hex digits of UTF-8)`,
    );
  }
  const bodyError = error as { type?: string; status?: number; limit?: number; message?: string };
  switch (bodyError.type) {
    case 'entity.parse.failed':
      return AppError.validation(`body: not valid JSON (${bodyError.message})`);
    case 'entity.too.large':
      return new AppError(
        'too-large',
        'PAYLOAD_TOO_LARGE',
        `body: larger than the limit of ${bodyError.limit} bytes`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported-media', 'UNSUPPORTED_MEDIA_TYPE', `body: ${bodyError.message}`);
  }
  if (error instanceof PeerError) return peerAppError(error);
  // Any other 400 of the body reader (an http-errors error, hence `expose`): a body that does
  // not decode as its Content-Encoding says, or shorter than its Content-Length.
  if (bodyError.status === 400 && error instanceof Error && 'expose' in error) {
    return AppError.validation(`body: could not be read as sent (${bodyError.message})`);
  }
  if (StorageState.isFull(error)) return AppError.storageFull(error);
  if (error instanceof Error && error.name === 'SqliteError') {
    return AppError.peer('DB_ERROR', 'database query failed', undefined, error);
  }
  return AppError.from(error);
}

export function errorHandler(logger: Logger, storage?: StorageState): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const appError = toAppError(error);
    if (appError.kind === 'storage-full') storage?.noteFull();
    const status = httpStatusOf(appError, req.path.startsWith('/webhooks/') ? 'webhook' : 'api');
    // A refusal for capacity is no failure of the bridge: the request's own log line says it.
    if (status >= 500 && appError.code !== 'TOO_MANY_CONNECTIONS') {
      logger.error({ err: appError.cause ?? error, reqId: req.id, path: req.path }, appError.message);
    }
    if (res.headersSent) return res.end();
    if (!req.complete && !drainable(req)) res.set('Connection', 'close');
    const body: ErrorEnvelope = {
      success: false,
      error: appError.message,
      code: appError.code,
      ...(appError.details !== undefined ? { details: appError.details } : {}),
      ...peerPart(appError),
    };
    res.status(status).set(httpHeadersOf(appError)).json(body);
  };
}

/** Kinds of failure a peer can be the reason for (a refusal of the input never is). */
const peerKinds: ReadonlySet<AppError['kind']> = new Set(['peer', 'rate-limit', 'unavailable']);

/** `peer` of the envelope: which peer failed and why (issue #30), when one did. */
function peerPart(appError: AppError): { peer?: PeerFailure } {
  if (!peerKinds.has(appError.kind)) return {};
  const peer = appError.peerFailure === undefined ? peerFailureIn(appError.cause) : appError.peerFailure;
  return peer ? { peer } : {};
}

/**
 * A request refused before its body was read (no key, a 404 or 405, ...): Node drains the
 * rest after the answer to keep the connection. Worth it for a small body; a large or
 * unsized (chunked) one is not read, the connection closes instead.
 */
function drainable(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return false;
  return Number(req.headers['content-length'] ?? 0) <= DRAIN_UNREAD_BODY_BYTES;
}
