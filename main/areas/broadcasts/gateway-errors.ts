import { describeGatewayError, gatewayCodes, type GatewayCode } from '../../peers/gateway.js';
import { PeerError } from '../../peers/peer-error.js';
import { BridgeError } from '../../http/errors.js';
import { toBridgeError } from '../../http/send-error.js';
import { redactText, redactValue } from './mask.js';

/**
 * HTTP status for each gateway code (spec §7 leaves the mapping open). 401 is kept for the
 * bridge's own key: the dashboard treats a 401 as "your key is wrong", so a host session that
 * expired (AUTH_EXPIRED) is a peer failure, 500 as spec §7 says for route failures.
 */
export const gatewayCodeStatus: Record<GatewayCode, number> = {
  CHANNEL_NOT_FOUND: 404,
  RTMP_INVALID: 400,
  CONFLICT: 409,
  AUTH_EXPIRED: 500,
  STREAMHOST_ERROR: 500,
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
): BridgeError {
  const secrets = context.secrets ?? [];
  if (!(error instanceof PeerError) || error.peer !== 'gateway') return toBridgeError(error);
  const failure = describeGatewayError(error);
  const message = redactText(failure.message, secrets);
  const details = detailsText(
    failure.details === undefined ? undefined : redactValue(failure.details, secrets),
  );
  if (isGatewayCode(failure.code)) {
    const status = gatewayCodeStatus[failure.code];
    return new BridgeError(status, failure.code, message, details ?? (status >= 500 ? message : undefined));
  }
  if (failure.code === 'VALIDATION_ERROR' && failure.status === 400)
    return BridgeError.validation(message, details);
  if (failure.status === 404 && context.notFound) return BridgeError.notFound(context.notFound);
  if (failure.outcomeUnknown) {
    return BridgeError.peer(
      'STREAMHOST_ERROR',
      `${context.action}: the gateway did not answer in time; it may have done it anyway. Check (sync) before trying again.`,
      message,
    );
  }
  const reason = [failure.code, message, details].filter(Boolean).join(': ');
  return BridgeError.peer('STREAMHOST_ERROR', `${context.action} failed: ${message}`, reason);
}

/** Spec §7: `details` is a string. */
function detailsText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
