import express, { type Request, type RequestHandler } from 'express';
import { AppError } from '../kernel/app-error.js';

export const BODY_LIMIT = '1mb';
/** Transcripts are large (DESIGN §4). Keyed by contract path. */
export const LARGE_BODY_PATHS: Record<string, string> = { '/clips/analyze': '5mb' };
export const JSON_TYPES = ['application/json', 'application/*+json'];
/** Deeper JSON is no real payload; recursive code over it (hashing, redaction) would overflow the stack. */
export const MAX_JSON_DEPTH = 64;

export interface RawBodyRequest extends Request {
  rawBody?: Buffer;
  /** Set by the webhook guard: which webhook id signed it, or "bridge-key". */
  signedBy?: string;
}

/**
 * The body of one route, read only after its guard has let the request through:
 * the raw bytes (kept for signatures) → `verifyRaw` (a signature over them, before any
 * parsing) → JSON.parse → the depth check. A route's handler never sees anything else.
 */
export function jsonBody(
  contractPath: string,
  verifyRaw?: (req: RawBodyRequest, raw: Buffer) => void,
): RequestHandler[] {
  const parse = express.json({
    limit: LARGE_BODY_PATHS[contractPath] ?? BODY_LIMIT,
    type: JSON_TYPES,
    verify: (req: RawBodyRequest, _res, raw) => {
      req.rawBody = raw;
      verifyRaw?.(req, raw);
    },
  });
  const afterParse: RequestHandler = (req: RawBodyRequest, _res, next) => {
    try {
      // No body at all: express.json never called `verify`, and a signature still covers "".
      if (req.rawBody === undefined) verifyRaw?.(req, Buffer.alloc(0));
      if (nestedDeeperThan(req.body, MAX_JSON_DEPTH)) {
        const message = `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
        throw AppError.validation(message, [{ field: 'body', rule: 'max_depth', message }]);
      }
      next();
    } catch (error) {
      next(error);
    }
  };
  return [parse, afterParse];
}

const isNode = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Iterative (JSON.parse accepts any depth; a recursive walk here would not). */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  if (!isNode(value)) return false;
  // Objects and arrays only: a webhook item's fields are mostly strings, and need no entry here.
  const pending: { node: object; depth: number }[] = [{ node: value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.depth > maxDepth) return true;
    for (const child of Object.values(next.node))
      if (isNode(child)) pending.push({ node: child, depth: next.depth + 1 });
  }
  return false;
}

/** 415 for a body that is not JSON (an empty body, as for POST /postsvc/sync, is fine). */
export const requireJsonBodies: RequestHandler = (req, _res, next) => {
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody || req.is(JSON_TYPES)) return next();
  next(
    new AppError(
      'unsupported-media',
      'UNSUPPORTED_MEDIA_TYPE',
      `body: Content-Type must be application/json (got ${req.headers['content-type'] ?? 'none'})`,
    ),
  );
};
