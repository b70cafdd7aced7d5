import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError } from '../kernel/app-error.js';
import { checkPace, type BodyPace } from './body-pace.js';

/** What watches a body as it is read: a body not yet verified (body.ts). */
export interface BodyWatch {
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
export async function readBodyBytes(
  req: IncomingMessage,
  limit: number,
  watch: BodyWatch = {},
): Promise<Buffer> {
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
export function refuseDeclaredOverLimit(req: IncomingMessage, limit: number): void {
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
