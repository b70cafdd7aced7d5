import type { z } from 'zod';
import type { ErrorCode } from '../../shared/api/contract.js';
import type { AppError, AppErrorKind } from '../kernel/app-error.js';

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
  // A body too slow for its deadline or rate (read-body.ts): EspoCRM retries a 408, and drops a 400.
  REQUEST_TIMEOUT: 408,
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
