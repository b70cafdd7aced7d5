import path from 'node:path';
import anyAscii from 'any-ascii';
import type { Request, Response } from 'express';
import type { FileReply, FileReplyOptions } from '../areas/area.js';
import { AppError } from '../kernel/app-error.js';

/**
 * Sends a FileReply: its media type, download name, cache rule and headers; one byte range when
 * asked (206 with Content-Range, 416 when it starts past the end; `Accept-Ranges: bytes`), HEAD
 * without the body. Text and bytes go out of memory (res.send: ETag, 304); a file on disk through
 * express's sendFile (the `send` package: ranges, If-Range, Last-Modified, ETag, 304).
 */
export function sendFileReply(req: Request, res: Response, reply: FileReply): Promise<void> | void {
  const { body, options } = reply;
  if (typeof body === 'string' || Buffer.isBuffer(body)) return sendInMemory(req, res, body, options);
  return sendFromDisk(req, res, path.resolve(body.path), options);
}

function sendInMemory(req: Request, res: Response, body: string | Buffer, options: FileReplyOptions): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.setHeader('Accept-Ranges', 'bytes');
  // range-parser, through express; like `send`, only a Range in bytes is read.
  const ranges = /^ *bytes=/.test(req.headers.range ?? '')
    ? req.range(bytes.length, { combine: true })
    : undefined;
  if (ranges === -1) {
    res.setHeader('Content-Range', `bytes */${bytes.length}`);
    throw unsatisfiable(req, bytes.length);
  }
  res.set(contentHeaders(options, typeof body === 'string'));
  // Several ranges or a malformed one get it whole, as does If-Range: our ETags are weak, never a match.
  const range = ranges !== undefined && ranges !== -2 && ranges.length === 1 ? ranges[0] : undefined;
  if (range === undefined || req.headers['if-range'] !== undefined) {
    res.send(body);
    return;
  }
  // The part carries the validator of the whole, as a file's does.
  const etagOf: ((entity: Buffer) => string) | undefined = req.app.get('etag fn');
  if (etagOf) res.setHeader('ETag', etagOf(bytes));
  res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${bytes.length}`);
  res.send(bytes.subarray(range.start, range.end + 1));
}

function sendFromDisk(req: Request, res: Response, file: string, options: FileReplyOptions): Promise<void> {
  const headers = contentHeaders(options, false);
  res.set(headers);
  return new Promise((resolve, reject) => {
    res.sendFile(file, { cacheControl: false, dotfiles: 'allow' }, (error?: Error & { status?: number }) => {
      // Sent, or cut off once sending began (the client went away): nothing more to say.
      if (!error || res.headersSent) return resolve();
      // The answer is an error now, not the file.
      for (const name of [...Object.keys(headers), 'ETag', 'Last-Modified']) res.removeHeader(name);
      if (error.status === 416) {
        // `send` has set Content-Range: bytes */<size>.
        const size = Number(String(res.getHeader('Content-Range')).split('/')[1]);
        return reject(unsatisfiable(req, size));
      }
      if (error.status === 412) {
        res.status(412).end();
        return resolve();
      }
      if (error.status === 404) {
        return reject(AppError.notFound(`${options.downloadName ?? path.basename(file)}: no longer on disk`));
      }
      reject(error);
    });
  });
}

function contentHeaders(options: FileReplyOptions, text: boolean): Record<string, string> {
  return {
    'Content-Type': text ? `${options.type}; charset=utf-8` : options.type,
    ...(options.downloadName === undefined
      ? {}
      : { 'Content-Disposition': contentDisposition(options.downloadName) }),
    'Cache-Control': options.cache ?? 'no-store',
    ...options.headers,
  };
}

function unsatisfiable(req: Request, size: number): AppError {
  return new AppError(
    'validation',
    'RANGE_NOT_SATISFIABLE',
    `Range: "${req.headers.range ?? ''}" starts past the end (${size} bytes)`,
  );
}

/** A file name as an HTTP header carries it: ASCII (transliterated) and, when that lost something, UTF-8. */
function contentDisposition(fileName: string): string {
  const ascii = anyAscii(fileName).replace(/["\\\u0000-\u001f\u007f]/g, '_'); // eslint-disable-line no-control-regex
  return ascii === fileName
    ? `attachment; filename="${fileName}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
