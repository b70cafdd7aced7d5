/** Codes the client itself produces, next to the bridge's ErrorCode. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'BAD_RESPONSE';
