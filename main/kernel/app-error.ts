import type { ErrorCode, PeerFailure } from '../../shared/api/contract.js';

/**
 * What went wrong, in the product's terms: which rule or peer, never which HTTP status. Only
 * main/http/ turns a kind into a status (one table, main/http/send-error.ts), so an area's
 * workflow reads the same whether a route, a webhook item or a job runs it.
 */
export type AppErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'unsupported-media'
  | 'rate-limit'
  | 'peer'
  | 'unavailable'
  | 'storage-full'
  | 'internal';

export interface AppErrorOptions {
  details?: unknown;
  /** How long the caller should wait before trying again (rate limits, quotas). */
  retryAfterS?: number;
  cause?: unknown;
  /**
   * Which peer failed and why, when the cause chain does not hold the PeerError (an area that
   * drops it so that its body is never logged as it came); null when a peer answered but its
   * answer is the reason, said in the message (a platform that refused a post).
   */
  peerFailure?: PeerFailure | null;
}

/** How long a caller refused for a full disk is asked to wait before trying again. */
const STORAGE_FULL_RETRY_AFTER_S = 30;

/** The one error type areas throw. Its message is public (it names the field and the rule); `cause` is logged, never sent. */
export class AppError extends Error {
  readonly details: unknown;
  readonly retryAfterS: number | undefined;
  readonly peerFailure: PeerFailure | null | undefined;

  constructor(
    readonly kind: AppErrorKind,
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.details = options.details;
    this.retryAfterS = options.retryAfterS;
    this.peerFailure = options.peerFailure;
  }

  static validation(message: string, details?: unknown): AppError {
    return new AppError('validation', 'VALIDATION_ERROR', message, { details });
  }
  static invalidDate(message: string): AppError {
    return new AppError('validation', 'INVALID_DATE', message);
  }
  static unauthorized(message = 'missing or wrong bridge API key'): AppError {
    return new AppError('unauthorized', 'UNAUTHORIZED', message);
  }
  static notFound(message: string): AppError {
    return new AppError('not-found', 'NOT_FOUND', message);
  }
  static conflict(message: string, details?: unknown): AppError {
    return new AppError('conflict', 'CONFLICT', message, { details });
  }
  /** 409: the post is live on these platforms; nothing was deleted (DESIGN §6.9). */
  static alreadyPublished(message: string, details?: unknown): AppError {
    return new AppError('conflict', 'ALREADY_PUBLISHED', message, { details });
  }
  /** 429: Retry-After in whole seconds, at least one (the one place it is rounded: quotas and peers' limits alike). */
  static tooMany(
    code: 'RATE_LIMIT' | 'QUOTA_EXCEEDED',
    message: string,
    retryAfterS: number,
    details?: unknown,
    options: Pick<AppErrorOptions, 'cause' | 'peerFailure'> = {},
  ): AppError {
    return new AppError('rate-limit', code, message, {
      details,
      retryAfterS: Math.max(1, Math.ceil(retryAfterS)),
      ...options,
    });
  }
  /** The route needs a peer the operator has not configured (say which setting). */
  static notConfigured(peer: string, setting: string): AppError {
    return new AppError(
      'unavailable',
      'NOT_CONFIGURED',
      `${peer} is not configured: set ${setting} (Settings page or environment)`,
    );
  }
  /**
   * The disk (or the database's growth limit) is full: the write was refused, reads still work.
   * It heals when space returns, so the caller is told to come back (DESIGN §4, §7).
   */
  static storageFull(cause?: unknown): AppError {
    return new AppError(
      'storage-full',
      'STORAGE_FULL',
      'storage full: the bridge cannot write to its data dir; try again once space is freed',
      { retryAfterS: STORAGE_FULL_RETRY_AFTER_S, cause },
    );
  }
  /** Anything that is not an AppError yet: an internal error whose cause is logged, never sent. */
  static from(error: unknown): AppError {
    if (error instanceof AppError) return error;
    return new AppError('internal', 'INTERNAL_ERROR', 'internal error', { cause: error });
  }
  /** A peer (or the store) failed the request; `details` carries the peer's own reason. */
  static peer(code: ErrorCode, message: string, details?: unknown, cause?: unknown): AppError {
    return new AppError('peer', code, message, { details, cause });
  }
}
