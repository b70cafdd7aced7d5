import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { checkPace, type BodyPace } from './body-pace.js';
import { firstByteAt } from './first-byte.js';
import { OVER_CAP_RETRY_AFTER_S } from './http-server.js';
import type { UnverifiedBodies } from './unverified-bodies.js';
import { findEncodingFault } from './utf8-field.js';
import { AppError } from '../kernel/app-error.js';

/**
 * Body limits in bytes (DESIGN §4): 1 MB, 5 MB for transcripts, 16 MB on webhooks (a 50-item
 * EspoCRM batch with transcripts passes 1 MB, and EspoCRM never retries a 413). Keyed by contract path.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const LARGE_BODY_PATHS: Record<string, number> = { '/clips/analyze': 5 * 1024 * 1024 };
export const WEBHOOK_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
export const JSON_TYPES = ['application/json', 'application/*+json'];
/** Deeper JSON is no real payload; recursive code over it (hashing, redaction) would overflow the stack. */
export const MAX_JSON_DEPTH = 64;

export function bodyLimitOf(contractPath: string): number {
  if (contractPath.startsWith('/webhooks/')) return WEBHOOK_BODY_LIMIT_BYTES;
  return LARGE_BODY_PATHS[contractPath] ?? BODY_LIMIT_BYTES;
}

export interface RawBodyRequest extends Request {
  rawBody?: Buffer;
  /** Set by the webhook guard: which webhook id signed it, or "bridge-key". */
  signedBy?: string;
}

/**
 * What authenticates a request from its body (a webhook's signature, a MAC of the raw bytes):
 * fed the bytes as they arrive, judged once they are all in, before anything parses them.
 */
export interface BodyCheck {
  update(chunk: Buffer): void;
  /** Throws an AppError when the body does not pass. */
  finish(): void;
}

/** How bodies that only their bytes can authenticate are read (issue #35.4). */
export interface UnverifiedReading {
  places: UnverifiedBodies;
  pace: BodyPace;
  /** Whom a request counts against: its address, or the forwarded client's behind a trusted proxy. */
  clientOf(req: IncomingMessage): string;
}

/**
 * The body of one route, read only after its guard has let the request through: the raw bytes
 * within the route's limit (readBodyBytes; kept for signatures) → the guard's body check (a
 * signature over them, before anything else looks at them) → UTF-8, never replaced
 * (utf8-field.ts names the field) → JSON.parse → the depth check. A route's handler never sees
 * anything else. A body the guard must check takes a place among the unverified ones, keeps
 * their pace, and is checked as it streams in; one its headers authenticated (the key) does not.
 */
export function jsonBody(
  contractPath: string,
  unverified: UnverifiedReading,
  bodyCheck?: (req: RawBodyRequest) => BodyCheck | null,
): RequestHandler {
  const limit = bodyLimitOf(contractPath);
  return async (req: RawBodyRequest, res, next) => {
    try {
      const check = bodyCheck?.(req) ?? null;
      // requireJsonBodies has refused a body of another type: only an empty one gets here.
      if (!hasBody(req) || !req.is(JSON_TYPES)) {
        // No body at all: a signature still covers "".
        check?.finish();
        return next();
      }
      const charset = (req.headers['content-type'] ?? '').match(/;\s*charset="?([^";]+)/i)?.[1];
      if (charset !== undefined && !/^utf-?8$/i.test(charset.trim())) {
        const message = `body: charset "${charset}" is not supported: send UTF-8`;
        throw new AppError('unsupported-media', 'UNSUPPORTED_MEDIA_TYPE', message);
      }
      const raw = check
        ? await readUnverified(req, res, limit, check, unverified)
        : await readBodyBytes(req, limit);
      req.rawBody = raw;
      check?.finish();
      req.body = parseJson(raw);
      next();
    } catch (error) {
      next(error);
    }
  };
}

async function readUnverified(
  req: Request,
  res: Response,
  limit: number,
  check: BodyCheck,
  { places, pace, clientOf }: UnverifiedReading,
): Promise<Buffer> {
  // Too large is final (EspoCRM drops a 413); no place is worth taking for it.
  refuseDeclaredOverLimit(req, limit);
  const admission = places.admit(clientOf(req));
  // Refused or cut short, such a request's connection closes: Node would otherwise read the rest.
  if (!admission.ok) {
    res.setHeader('Connection', 'close');
    throw overCapacity(admission.reason);
  }
  try {
    return await readBodyBytes(req, limit, {
      onChunk: (chunk) => {
        if (!admission.place.take(chunk.length))
          throw overCapacity('the bridge holds as many bytes of bodies not yet verified as it may');
        check.update(chunk);
      },
      pace: { rules: pace, firstByteAt: firstByteAt(req) },
    });
  } catch (error) {
    res.setHeader('Connection', 'close');
    throw error;
  } finally {
    admission.place.release();
  }
}

/** 503 with Retry-After: EspoCRM retries it (DESIGN §4), a delivery refused here is late, not lost. */
function overCapacity(reason: string): AppError {
  return new AppError('unavailable', 'TOO_MANY_CONNECTIONS', `${reason}: try again later`, {
    retryAfterS: OVER_CAP_RETRY_AFTER_S,
  });
}

/** What watches a body as it is read: a body not yet verified. */
interface BodyWatch {
  /** Sees each piece as it arrives (a MAC computed as the body streams in); throws an AppError to stop the read. */
  onChunk?(chunk: Buffer): void;
  /** The pace it must keep (body-pace.ts), from its request's first byte (performance.now()). */
  pace?: { rules: BodyPace; firstByteAt: number };
}

/**
 * Reads a request's body bytes within a limit (DESIGN §4, issue #25.2). A declared
 * Content-Length over the limit is refused before a byte is read; a body without one (chunked)
 * or a compressed one that inflates past it stops at the limit: reading ends there, the request
 * is paused and the answer closes the connection (send-error.ts), so the rest is never read.
 * (body-parser, which this replaces, read a refused body to its end before answering: 7.4 s
 * for a declared 2 GB behind a forged webhook signature.) A watched body also stops when its
 * watcher refuses a piece or it falls behind its pace (408).
 */
async function readBodyBytes(req: IncomingMessage, limit: number, watch: BodyWatch = {}): Promise<Buffer> {
  refuseDeclaredOverLimit(req, limit);
  const source = decoded(req);
  const bodyStart = performance.now();
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let paceTimer: NodeJS.Timeout | undefined;
    const finish = (error: AppError | null) => {
      clearTimeout(paceTimer);
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      req.off('aborted', onAborted);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, received));
    };
    const stop = (error: AppError) => {
      stopReading(req, source);
      finish(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return stop(tooLarge(limit, 'is longer'));
      try {
        watch.onChunk?.(chunk);
      } catch (error) {
        return stop(error as AppError);
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    const onError = (error: Error) =>
      stop(AppError.validation(`body: could not be read as sent (${error.message})`));
    const onAborted = () => finish(AppError.validation('body: the client stopped sending it'));
    const { pace } = watch;
    const lookAtPace = () => {
      if (!pace) return;
      const now = performance.now();
      const verdict = checkPace(pace.rules, {
        sinceFirstByteMs: now - pace.firstByteAt,
        sinceBodyStartMs: now - bodyStart,
        received,
      });
      if (verdict.ok) paceTimer = setTimeout(lookAtPace, verdict.checkAgainInMs);
      else stop(new AppError('validation', 'REQUEST_TIMEOUT', verdict.reason));
    };
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
    req.once('aborted', onAborted);
    lookAtPace();
  });
}

/** 413 for a Content-Length over the limit, before a byte of the body is read. */
function refuseDeclaredOverLimit(req: IncomingMessage, limit: number): void {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw tooLarge(limit, `declares ${declared} bytes`);
}

function tooLarge(limit: number, what: string): AppError {
  return new AppError('too-large', 'PAYLOAD_TOO_LARGE', `body: ${what} than the limit of ${limit} bytes`);
}

/** The body as sent, or inflated by its Content-Encoding (the limit counts inflated bytes). */
function decoded(req: IncomingMessage): IncomingMessage | Transform {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  const inflate = {
    gzip: createGunzip,
    'x-gzip': createGunzip,
    deflate: createInflate,
    br: createBrotliDecompress,
  }[encoding];
  if (encoding === 'identity') return req;
  if (!inflate) {
    throw new AppError(
      'unsupported-media',
      'UNSUPPORTED_MEDIA_TYPE',
      `body: Content-Encoding "${encoding}" is not supported (identity, gzip, deflate or br)`,
    );
  }
  return req.pipe(inflate());
}

function stopReading(req: IncomingMessage, source: IncomingMessage | Transform): void {
  req.unpipe(); // the inflater, if any
  if (source !== req) source.destroy();
  req.pause();
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
