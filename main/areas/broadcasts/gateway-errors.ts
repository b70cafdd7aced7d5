import { AppError, type AppErrorKind } from '../../kernel/app-error.js';
import { describeGatewayError, gatewayCodes, type GatewayCode } from '../../peers/gateway.js';
import { PeerError, peerAppError } from '../../peers/peer-error.js';
import { describePeerFailure } from '../../peers/peer-failure.js';
import { redactText, redactValue } from '../../kernel/secret-mask.js';

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
 * A failed gateway call as the bridge answers it: the gateway's code passes through with its
 * message and details (a string, spec §7); anything else is STREAMHOST_ERROR with the reason
 * in `details`.
 * `secrets` (a stream key) are masked wherever they appear. The raw PeerError is not kept as
 * the cause: its body would be logged as it came.
 */
export function gatewayBridgeError(
  error: unknown,
  context: { action: string; secrets?: readonly (string | undefined)[]; notFound?: string },
): AppError {
  const secrets = context.secrets ?? [];
  if (!(error instanceof PeerError)) return AppError.from(error);
  if (error.peer !== 'gateway') return peerAppError(error);
  const failure = describeGatewayError(error);
  const peerFailure = describePeerFailure(error);
  const message = redactText(failure.message, secrets);
  const details = detailsText(
    failure.details === undefined ? undefined : redactValue(failure.details, secrets),
  );
  // DESIGN §4: a rate limit is 429 RATE_LIMIT with Retry-After, whichever peer set it.
  if (failure.status === 429) {
    return new AppError('rate-limit', 'RATE_LIMIT', `${context.action}: ${message}`, {
      retryAfterS: Math.max(1, error.details.retryAfterS ?? 60),
      details: details ?? message,
      peerFailure,
    });
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
      `${context.action}: the gateway did not answer in time; it may have done it anyway. Check (sync) before trying again.`,
      { details: message, peerFailure },
    );
  }
  const reason = [failure.code, message, details].filter(Boolean).join(': ');
  return new AppError('peer', 'STREAMHOST_ERROR', `${context.action} failed: ${message}`, {
    details: reason,
    peerFailure,
  });
}

/** Spec §7: `details` is a string. */
function detailsText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
