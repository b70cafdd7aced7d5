import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { ErrorEnvelope } from '../../shared/api/contract.js';
import { PeerError } from '../peers/peer-error.js';
import { BridgeError } from './errors.js';

const peerCodes: Record<string, BridgeError['code']> = {
  crm: 'CRM_ERROR',
  postsvc: 'PLATFORM_ERROR',
  gateway: 'STREAMHOST_ERROR',
  automation: 'AUTOMATION_ERROR',
};

/** Maps any error to the envelope of DESIGN §4; logs the inner error, sends the public message. */
export function toBridgeError(error: unknown): BridgeError {
  if (error instanceof BridgeError) return error;
  const bodyError = error as { type?: string; status?: number; limit?: number; message?: string };
  switch (bodyError.type) {
    case 'entity.parse.failed':
      return BridgeError.validation(`body: not valid JSON (${bodyError.message})`);
    case 'entity.too.large':
      return new BridgeError(
        413,
        'PAYLOAD_TOO_LARGE',
        `body: larger than the limit of ${bodyError.limit} bytes`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new BridgeError(415, 'UNSUPPORTED_MEDIA_TYPE', `body: ${bodyError.message}`);
  }
  if (error instanceof PeerError) {
    return BridgeError.peer(
      peerCodes[error.peer] ?? 'INTERNAL_ERROR',
      error.message,
      error.details.statusReason,
      error,
    );
  }
  if (error instanceof Error && error.name === 'SqliteError') {
    return BridgeError.peer('DB_ERROR', 'database query failed', undefined, error);
  }
  return new BridgeError(500, 'INTERNAL_ERROR', 'internal error', undefined, {}, { cause: error });
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const bridgeError = toBridgeError(error);
    if (bridgeError.status >= 500) {
      logger.error({ err: bridgeError.cause ?? error, reqId: req.id, path: req.path }, bridgeError.message);
    }
    if (res.headersSent) return res.end();
    const body: ErrorEnvelope = {
      success: false,
      error: bridgeError.message,
      code: bridgeError.code,
      ...(bridgeError.details !== undefined ? { details: bridgeError.details } : {}),
    };
    res.status(bridgeError.status).set(bridgeError.headers).json(body);
  };
}
