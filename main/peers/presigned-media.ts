import { openAsBlob } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { PeerError } from './peer-error.js';

/**
 * The provider's media store beyond its API (DESIGN §5.2): the presigned upload URL and the access
 * URL live on its bucket, not under `{post}`, and take no Authorization header — a presigned URL
 * carries its own signature, and the provider's key must never travel to another host.
 */

/** PUT the file once, with the MIME type the upload URL was issued for. Never repeated: a new upload URL is the retry. */
export async function putPresigned(
  uploadUrl: string,
  file: string,
  contentType: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const label = `postsvc media PUT ${new URL(uploadUrl).host}`;
  const body = await openAsBlob(file, { type: contentType });
  let response: Response;
  try {
    response = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body,
      signal: signalOf(options.timeoutMs ?? 300_000, options.signal),
    });
  } catch (cause) {
    options.signal?.throwIfAborted();
    throw new PeerError(
      'postsvc',
      'network',
      `${label}: the upload did not get through (${words(cause)})`,
      {},
      { cause },
    );
  }
  const text = await response.text();
  if (!response.ok)
    throw new PeerError(
      'postsvc',
      'http',
      `${label}: the media store refused the upload with HTTP ${response.status}${text ? ` (${text.slice(0, 200)})` : ''}`,
      { status: response.status },
    );
}

/**
 * HEAD the access URL: the bytes are there, as many as sent (a failed upload is silent). Retried
 * (a HEAD changes nothing) on no answer and 5xx; a 404 or a wrong length is said at once.
 */
export async function confirmUploaded(
  accessUrl: string,
  expectedBytes: number,
  options: { attempts?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const attempts = options.attempts ?? 3;
  const label = `postsvc media HEAD ${new URL(accessUrl).host}`;
  for (let attempt = 1; ; attempt++) {
    let failure: PeerError;
    try {
      const response = await fetch(accessUrl, { method: 'HEAD', signal: signalOf(15_000, options.signal) });
      const length = Number(response.headers.get('content-length'));
      if (response.ok && length === expectedBytes) return;
      failure = new PeerError(
        'postsvc',
        'http',
        response.ok
          ? `${label}: the stored media has ${length} bytes, not the ${expectedBytes} sent (the upload did not arrive whole)`
          : `${label}: the media is not there (HTTP ${response.status}): the upload did not arrive`,
        { status: response.ok ? 502 : response.status },
      );
      if (response.status < 500) throw failure;
    } catch (error) {
      if (error instanceof PeerError && (error.status ?? 500) < 500) throw error;
      options.signal?.throwIfAborted();
      failure =
        error instanceof PeerError
          ? error
          : new PeerError(
              'postsvc',
              'network',
              `${label}: no answer (${words(error)})`,
              {},
              { cause: error },
            );
    }
    if (attempt >= attempts) throw failure;
    await sleep(500 * attempt, undefined, { signal: options.signal });
  }
}

function signalOf(timeoutMs: number, signal: AbortSignal | undefined): AbortSignal {
  return AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]);
}

function words(cause: unknown): string {
  const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause;
  const code = (inner as { code?: string } | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (cause instanceof DOMException && cause.name === 'TimeoutError') return 'timed out';
  return inner instanceof Error ? inner.message : String(inner);
}
