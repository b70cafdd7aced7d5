import type { ErrorCode } from '../../shared/api/contract.js';
import { AppError, type AppErrorKind, type AppErrorOptions } from '../kernel/app-error.js';
import { redactText, redactValue } from '../kernel/secret-mask.js';
import { describeGatewayError, gatewayCodes, type GatewayCode } from './gateway.js';
import { partialResultWords } from './partial-words.js';
import { PeerError } from './peer-error.js';
import { describePeerFailure } from './peer-failure.js';
import { isUnknownPost, PostsvcError } from './postsvc.js';

/**
 * What a service knows of its peer call that the PeerError does not say. http/ maps any PeerError
 * a route lets through without it; a service passes it where the answer needs it.
 */
interface PeerErrorContext {
  /** What the bridge was doing, said in the message ("create broadcast"). */
  action?: string;
  /** Values sent to the peer that are never answered back (a stream key): masked wherever they appear. */
  secrets?: readonly (string | undefined)[];
  /** The peer has no such thing (its 404 for an id the request named): 404 NOT_FOUND in these words. */
  notFound?: string;
}

const peerCodes: Record<string, ErrorCode> = {
  crm: 'CRM_ERROR',
  postsvc: 'PLATFORM_ERROR',
  gateway: 'STREAMHOST_ERROR',
  automation: 'AUTOMATION_ERROR',
};

/** A 429 without Retry-After: the caller is asked to wait a minute. */
const DEFAULT_RETRY_AFTER_S = 60;

/**
 * A peer's failure as the bridge answers it (spec §7, DESIGN §4, §5): the one mapping from a
 * PeerError to an AppError. The provider's and the gateway's own codes pass through; any other
 * peer's failure is its spec code with its reason in `details`; a rate limit is 429 RATE_LIMIT
 * with Retry-After, whichever peer set it. Anything that is not a PeerError is returned as it is.
 */
export function peerAppError(error: PeerError, context?: PeerErrorContext): AppError;
export function peerAppError(error: unknown, context?: PeerErrorContext): unknown;
export function peerAppError(error: unknown, context: PeerErrorContext = {}): unknown {
  if (!(error instanceof PeerError)) return error;
  if (error instanceof PostsvcError) return providerAppError(error, context);
  if (error.peer === 'gateway') return gatewayAppError(error, context);
  if (error.kind === 'http' && error.status === 429) {
    return rateLimited(error, error.message, error.details.statusReason, { cause: error });
  }
  return AppError.peer(
    peerCodes[error.peer] ?? 'INTERNAL_ERROR',
    error.message,
    error.details.statusReason,
    error,
  );
}

function rateLimited(
  error: PeerError,
  message: string,
  details: unknown,
  options: Pick<AppErrorOptions, 'cause' | 'peerFailure'>,
): AppError {
  const retryAfterS = error.details.retryAfterS ?? DEFAULT_RETRY_AFTER_S;
  return AppError.tooMany('RATE_LIMIT', message, retryAfterS, details, options);
}

/**
 * The posting provider (DESIGN §5.2): AUTH_ERROR, INVALID_MEDIA, PLATFORM_ERROR as 500 with the
 * provider's own message in `details`; its 404 "post id not found" is `context.notFound`.
 */
function providerAppError(error: PostsvcError, context: PeerErrorContext): AppError {
  if (context.notFound !== undefined && isUnknownPost(error)) return AppError.notFound(context.notFound);
  if (error.code === 'RATE_LIMIT') {
    return rateLimited(error, error.message, error.providerMessage, { cause: error });
  }
  if (error.created) {
    // Partly out: said per platform in words; the provider's post id is for integrators, in details.
    const posted = error.created.postIds.map((p) => p.platform);
    return new AppError(
      'peer',
      error.code satisfies ErrorCode,
      partialResultWords(posted, error.platformErrors),
      {
        details: { postsvcId: error.created.id, posted, providerMessage: error.providerMessage },
        cause: error,
        peerFailure: null,
      },
    );
  }
  // Platforms that refused the post: their reasons are the message, not the provider's state.
  const platformsRefused = error.platformErrors.length > 0 ? { peerFailure: null } : {};
  return new AppError('peer', error.code satisfies ErrorCode, error.message, {
    details: error.providerMessage,
    cause: error,
    ...platformsRefused,
  });
}

/**
 * What each gateway code means to the bridge (spec §7 leaves it open). A host session that
 * expired (AUTH_EXPIRED) is a peer failure: the bridge's own 401 means "your key is wrong".
 */
const gatewayCodeKind: Record<GatewayCode, AppErrorKind> = {
  CHANNEL_NOT_FOUND: 'not-found',
  RTMP_INVALID: 'validation',
  CONFLICT: 'conflict',
  AUTH_EXPIRED: 'peer',
  STREAMHOST_ERROR: 'peer',
};

function isGatewayCode(code: string | undefined): code is GatewayCode {
  return code !== undefined && (gatewayCodes as readonly string[]).includes(code);
}

/**
 * The publishing gateway (DESIGN §5.3): its code passes through with its message and details (a
 * string, spec §7); anything else is STREAMHOST_ERROR with the reason in `details`. The raw
 * PeerError is not kept as the cause: its body would be logged as it came, secrets included.
 */
function gatewayAppError(error: PeerError, context: PeerErrorContext): AppError {
  const action = context.action ?? 'publishing gateway call';
  const secrets = context.secrets ?? [];
  const failure = describeGatewayError(error);
  const peerFailure = describePeerFailure(error);
  const message = redactText(failure.message, secrets);
  const details = detailsText(
    failure.details === undefined ? undefined : redactValue(failure.details, secrets),
  );
  if (failure.status === 429) {
    return rateLimited(error, `${action}: ${message}`, details ?? message, { peerFailure });
  }
  if (isGatewayCode(failure.code)) {
    const kind = gatewayCodeKind[failure.code];
    return new AppError(kind, failure.code, message, {
      details: details ?? (kind === 'peer' ? message : undefined),
      ...(kind === 'peer' ? { peerFailure } : {}),
    });
  }
  if (failure.code === 'VALIDATION_ERROR' && failure.status === 400)
    return AppError.validation(message, details);
  if (failure.status === 404 && context.notFound) return AppError.notFound(context.notFound);
  if (failure.outcomeUnknown) {
    return new AppError(
      'peer',
      'STREAMHOST_ERROR',
      `${action}: the gateway did not answer in time; it may have done it anyway. Check (sync) before trying again.`,
      { details: message, peerFailure },
    );
  }
  const reason = [failure.code, message, details].filter(Boolean).join(': ');
  return new AppError('peer', 'STREAMHOST_ERROR', `${action} failed: ${message}`, {
    details: reason,
    peerFailure,
  });
}

/** Spec §7: `details` is a string. */
function detailsText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
