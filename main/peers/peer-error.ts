/**
 * What went wrong talking to a peer, classified for the retry decision (DESIGN §6.2). `refused-key`:
 * nothing was sent, the peer's saved key belongs to another origin (issue #35.3).
 */
export type PeerFailureKind = 'network' | 'timeout' | 'http' | 'invalid-body' | 'refused-key';

/** How a peer whose saved key belongs to another origin is described (health, errors; issue #35.3). */
export const refusedKeyWords = (savedFor: string): string => `refused key: key saved for ${savedFor}`;

export class PeerError extends Error {
  override name = 'PeerError';
  constructor(
    readonly peer: string,
    readonly kind: PeerFailureKind,
    message: string,
    readonly details: {
      status?: number;
      /** Seconds, from Retry-After. */
      retryAfterS?: number;
      /** Parsed JSON body when there was one. */
      body?: unknown;
      /** EspoCRM puts its reason in the X-Status-Reason header. */
      statusReason?: string;
      /** Whether the request may have had its effect (a POST that timed out). */
      outcomeUnknown?: boolean;
    } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get status(): number | undefined {
    return this.details.status;
  }

  /** Network errors, 429 and 5xx may succeed later; other 4xx and bad bodies will not. */
  get retryable(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true;
    if (this.kind === 'http') return this.details.status === 429 || (this.details.status ?? 0) >= 500;
    return false;
  }
}
