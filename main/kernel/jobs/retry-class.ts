import { AppError } from '../app-error.js';

/** Thrown by a handler when trying again cannot help (a 4xx, a bad record). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/** Lets a handler ask for a specific delay before the next attempt (a peer's Retry-After). */
export class RetryLaterError extends Error {
  override name = 'RetryLaterError';
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

/**
 * The retry classes of DESIGN §6.2, for every peer call a job makes. `transient`: a network
 * error, 408, 429, 502–504 (and anything not known to be final) — retried with backoff.
 * `permanent`: any other 4xx (e.g. a CRM 400 validationFailure) — the job ends at once, its
 * reason on the record and in activity. An unknown outcome (a POST that timed out, a 500) is
 * retried too, because every handler reads the record and its ledger before it acts: the next
 * attempt reconciles, never resends blindly.
 */
export type RetryClass = 'transient' | 'permanent';

/** A peer failure's HTTP status, looking through AppError causes (peers/ errors carry `details.status`). */
function peerStatus(error: unknown): number | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; depth++) {
    if (cause.name === 'PeerError' || cause.name === 'PostsvcError') {
      const details = (cause as Error & { details?: { status?: unknown } }).details;
      if (typeof details?.status === 'number') return details.status;
    }
    cause = cause.cause;
  }
  return undefined;
}

const TRANSIENT_STATUS = new Set([408, 429, 502, 503, 504]);

export function retryClassOf(error: unknown): RetryClass {
  if (error instanceof PermanentJobError) return 'permanent';
  if (error instanceof RetryLaterError) return 'transient';
  if (
    error instanceof AppError &&
    error.kind !== 'peer' &&
    error.kind !== 'rate-limit' &&
    error.kind !== 'internal'
  )
    return 'permanent';
  const status = peerStatus(error);
  if (status !== undefined && status >= 400 && status < 500 && !TRANSIENT_STATUS.has(status))
    return 'permanent';
  return 'transient';
}

/** Seconds the peer asked to wait (Retry-After), if it said. */
export function retryAfterMsOf(error: unknown): number | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; depth++) {
    const details = (cause as Error & { details?: { retryAfterS?: unknown } }).details;
    if (typeof details?.retryAfterS === 'number') return details.retryAfterS * 1000;
    if (cause instanceof AppError && cause.retryAfterS !== undefined) return cause.retryAfterS * 1000;
    cause = cause.cause;
  }
  return undefined;
}
