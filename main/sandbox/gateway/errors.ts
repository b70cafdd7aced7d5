/** The gateway's error body `{error, code, details?}` with the spec's broadcast codes (spec §7). */
export type GatewayCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'CHANNEL_NOT_FOUND'
  | 'RTMP_INVALID'
  | 'AUTH_EXPIRED'
  | 'CONFLICT'
  | 'STREAMHOST_ERROR';

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: GatewayCode,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'GatewayError';
  }

  toBody(): { error: string; code: GatewayCode; details?: string } {
    return { error: this.message, code: this.code, ...(this.details ? { details: this.details } : {}) };
  }
}
