import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { ErrorEnvelope } from '../../shared/api/contract.js';
import { PeerError, peerAppError } from '../peers/peer-error.js';
import { AppError } from '../kernel/app-error.js';
import { httpHeadersOf, httpStatusOf } from './errors.js';

/** Maps any error to the envelope of DESIGN §4; logs the inner error, sends the public message. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const bodyError = error as { type?: string; status?: number; limit?: number; message?: string };
  switch (bodyError.type) {
    case 'entity.parse.failed':
      return AppError.validation(`body: not valid JSON (${bodyError.message})`);
    case 'entity.too.large':
      return new AppError(
        'too-large',
        'PAYLOAD_TOO_LARGE',
        `body: larger than the limit of ${bodyError.limit} bytes`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported-media', 'UNSUPPORTED_MEDIA_TYPE', `body: ${bodyError.message}`);
  }
  if (error instanceof PeerError) return peerAppError(error);
  if (error instanceof Error && error.name === 'SqliteError') {
    return AppError.peer('DB_ERROR', 'database query failed', undefined, error);
  }
  return AppError.from(error);
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const appError = toAppError(error);
    const status = httpStatusOf(appError);
    if (status >= 500) {
      logger.error({ err: appError.cause ?? error, reqId: req.id, path: req.path }, appError.message);
    }
    if (res.headersSent) return res.end();
    const body: ErrorEnvelope = {
      success: false,
      error: appError.message,
      code: appError.code,
      ...(appError.details !== undefined ? { details: appError.details } : {}),
    };
    res.status(status).set(httpHeadersOf(appError)).json(body);
  };
}
