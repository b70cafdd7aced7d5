import type { Request, RequestHandler } from 'express';
import { readBodyBytes } from './read-body.js';
import { findEncodingFault } from './utf8-field.js';
import { AppError } from '../kernel/app-error.js';

/** Body limits in bytes (DESIGN §4): 1 MB, 5 MB for transcripts. Keyed by contract path. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const LARGE_BODY_PATHS: Record<string, number> = { '/clips/analyze': 5 * 1024 * 1024 };
export const JSON_TYPES = ['application/json', 'application/*+json'];
/** Deeper JSON is no real payload; recursive code over it (hashing, redaction) would overflow the stack. */
export const MAX_JSON_DEPTH = 64;

export interface RawBodyRequest extends Request {
  rawBody?: Buffer;
  /** Set by the webhook guard: which webhook id signed it, or "bridge-key". */
  signedBy?: string;
}

/**
 * The body of one route, read only after its guard has let the request through: the raw bytes
 * within the route's limit (read-body.ts; kept for signatures) → `verifyRaw` (a signature over
 * them, before anything else looks at them) → UTF-8, never replaced (utf8-field.ts names the
 * field) → JSON.parse → the depth check. A route's handler never sees anything else.
 */
export function jsonBody(
  contractPath: string,
  verifyRaw?: (req: RawBodyRequest, raw: Buffer) => void,
): RequestHandler {
  const limit = LARGE_BODY_PATHS[contractPath] ?? BODY_LIMIT_BYTES;
  return async (req: RawBodyRequest, _res, next) => {
    try {
      // requireJsonBodies has refused a body of another type: only an empty one gets here.
      if (!hasBody(req) || !req.is(JSON_TYPES)) {
        // No body at all: a signature still covers "".
        verifyRaw?.(req, Buffer.alloc(0));
        return next();
      }
      const charset = (req.headers['content-type'] ?? '').match(/;\s*charset="?([^";]+)/i)?.[1];
      if (charset !== undefined && !/^utf-?8$/i.test(charset.trim())) {
        const message = `body: charset "${charset}" is not supported: send UTF-8`;
        throw new AppError('unsupported-media', 'UNSUPPORTED_MEDIA_TYPE', message);
      }
      const raw = await readBodyBytes(req, limit);
      req.rawBody = raw;
      verifyRaw?.(req, raw);
      req.body = parseJson(raw);
      next();
    } catch (error) {
      next(error);
    }
  };
}

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
}

/** JSON text of an object or array (as body-parser's strict mode took), in UTF-8, at most 64 deep. */
function parseJson(raw: Buffer): unknown {
  const fault = findEncodingFault(raw);
  if (fault) {
    const byte = `0x${fault.byte.toString(16).toUpperCase().padStart(2, '0')}`;
    throw new AppError(
      'validation',
      'INVALID_ENCODING',
      `${fault.field}: not UTF-8 (byte ${byte} at offset ${fault.offset}); send text as UTF-8`,
      { details: [{ field: fault.field, rule: 'utf-8', message: `byte ${byte} at offset ${fault.offset}` }] },
    );
  }
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  if (!/^[\s]*[{[]/.test(text))
    throw AppError.validation('body: not valid JSON (expected an object or an array)');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw AppError.validation(`body: not valid JSON (${(error as Error).message})`);
  }
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    const message = `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
    throw AppError.validation(message, [{ field: 'body', rule: 'max_depth', message }]);
  }
  return value;
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
