import type { z } from 'zod';
import type { ErrorCode } from '../../shared/api/contract.js';

/**
 * The one error type routes and services throw. Its message is public (it names the field
 * and the rule); `cause` is logged, never sent.
 */
export class BridgeError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BridgeError';
  }

  static validation(message: string, details?: unknown): BridgeError {
    return new BridgeError(400, 'VALIDATION_ERROR', message, details);
  }
  static invalidDate(message: string): BridgeError {
    return new BridgeError(400, 'INVALID_DATE', message);
  }
  static unauthorized(message = 'missing or wrong bridge API key'): BridgeError {
    return new BridgeError(401, 'UNAUTHORIZED', message);
  }
  static notFound(message: string): BridgeError {
    return new BridgeError(404, 'NOT_FOUND', message);
  }
  static conflict(message: string, details?: unknown): BridgeError {
    return new BridgeError(409, 'CONFLICT', message, details);
  }
  static tooMany(
    code: 'RATE_LIMIT' | 'QUOTA_EXCEEDED',
    message: string,
    retryAfterS: number,
    details?: unknown,
  ) {
    return new BridgeError(429, code, message, details, {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterS))),
    });
  }
  /** 503: the route needs a peer the operator has not configured (say which setting). */
  static notConfigured(peer: string, setting: string): BridgeError {
    return new BridgeError(
      503,
      'NOT_CONFIGURED',
      `${peer} is not configured: set ${setting} (Settings page or environment)`,
    );
  }
  static peer(code: ErrorCode, message: string, details?: unknown, cause?: unknown): BridgeError {
    return new BridgeError(500, code, message, details, {}, { cause });
  }
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
