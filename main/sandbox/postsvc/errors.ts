import type { ProviderPlatform } from './platforms.js';

/**
 * Ayrshare-style error codes. 186 (unknown post id) is the one DESIGN §5.2 names; the
 * others are the sandbox's choice of plausible numbers, stable so tests can assert them.
 */
export const errorCodes = {
  missingParameters: 101,
  apiKeyInvalid: 102,
  platformError: 107,
  postTooLong: 120,
  scheduleDateInPast: 131,
  mediaRequired: 136,
  mediaUnreachable: 138,
  dailyQuota: 145,
  planRequired: 166,
  platformNotLinked: 156,
  profileSuspended: 169,
  postNotFound: 186,
  postNotPublished: 187,
  postNotPending: 190,
  rateLimited: 429,
} as const;

export interface PlatformError {
  action: 'post' | 'analytics';
  status: 'error';
  platform: ProviderPlatform;
  code: number;
  message: string;
}

export interface ErrorBody {
  status: 'error';
  code: number;
  message: string;
  errors: PlatformError[];
  [extra: string]: unknown;
}

export function errorBody(code: number, message: string, extra: Record<string, unknown> = {}): ErrorBody {
  return { status: 'error', code, message, errors: [], ...extra };
}

/** Thrown inside handlers; the router turns it into `status` + the body. */
export class ProviderError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = 'ProviderError';
  }
}
