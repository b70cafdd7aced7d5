import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError } from '../kernel/app-error.js';

/**
 * Reads a request's body bytes within a limit (DESIGN §4, issue #25.2). A declared
 * Content-Length over the limit is refused before a byte is read; a body without one (chunked)
 * or a compressed one that inflates past it stops at the limit: reading ends there, the request
 * is paused and the answer closes the connection (send-error.ts), so the rest is never read.
 * (body-parser, which this replaces, read a refused body to its end before answering: 7.4 s
 * for a declared 2 GB behind a forged webhook signature.)
 */
export async function readBodyBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw tooLarge(limit, `declares ${declared} bytes`);
  const source = decoded(req);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (error: AppError | null) => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      req.off('aborted', onAborted);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) {
        chunks.push(chunk);
        return;
      }
      stopReading(req, source);
      finish(tooLarge(limit, 'is longer'));
    };
    const onEnd = () => finish(null);
    const onError = (error: Error) => {
      stopReading(req, source);
      finish(AppError.validation(`body: could not be read as sent (${error.message})`));
    };
    const onAborted = () => finish(AppError.validation('body: the client stopped sending it'));
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onError);
    req.once('aborted', onAborted);
  });
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
