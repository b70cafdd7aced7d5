import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { backoffDelayMs, type BackoffPolicy } from '../kernel/jobs/backoff.js';
import { PeerError, refusedKeyWords } from './peer-error.js';
import { RateLimiter } from './rate-limiter.js';

export interface HttpClientOptions {
  /** Peer name for errors and health ("crm", "postsvc", ...). */
  peer: string;
  baseUrl: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** In-request retries of retryable failures; long retries belong to the job queue. */
  retry?: { attempts: number; backoff: BackoffPolicy };
  rateLimit?: { perSecond: number; burst?: number };
  /** A limiter shared with the other clients of the same peer account (wins over `rateLimit`). */
  limiter?: RateLimiter;
  /**
   * The longest a request waits out a peer's Retry-After before it is sent (default 10 s);
   * past it the request is refused at once with a 429 PeerError saying how long is left, so
   * an operator's action answers instead of hanging for a minute.
   */
  maxPauseWaitMs?: number;
  /** Called after every attempt: feeds peer health. */
  onAttempt?: (outcome: { ok: boolean; latencyMs: number; error?: PeerError }) => void;
  /**
   * The origin the peer's saved key belongs to, when it is not this peer's (issue #35.3): every
   * request is refused before anything is sent, saying so.
   */
  keyRefusedFor?: string;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined> | URLSearchParams;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /**
   * Whether repeating the request is harmless. Defaults to true for GET/PUT/DELETE and false
   * for POST/PATCH: a POST that timed out may have had its effect and is never resent blindly.
   */
  idempotent?: boolean;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

const DEFAULT_MAX_PAUSE_WAIT_MS = 10_000;

const defaultRetry = { attempts: 3, backoff: { baseMs: 300, maxMs: 3_000, jitter: 0.1 } };

/** One HTTP client under every peer client: timeouts, retry classification, backoff, rate limit. */
export class HttpClient {
  readonly peer: string;
  readonly baseUrl: string;
  private readonly limiter: RateLimiter | undefined;

  constructor(private readonly options: HttpClientOptions) {
    this.peer = options.peer;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.limiter =
      options.limiter ??
      (options.rateLimit ? new RateLimiter(options.rateLimit.perSecond, options.rateLimit.burst) : undefined);
  }

  /** Sends the request; a non-2xx answer is thrown as a PeerError carrying status, body and reason. */
  async request(request: RequestOptions): Promise<HttpResponse> {
    const keyRefusedFor = this.options.keyRefusedFor;
    if (keyRefusedFor !== undefined) {
      throw new PeerError(
        this.peer,
        'refused-key',
        `${this.peer} ${request.method} ${request.path}: not sent: ${refusedKeyWords(keyRefusedFor)}`,
      );
    }
    const idempotent = request.idempotent ?? ['GET', 'PUT', 'DELETE'].includes(request.method);
    const retry = this.options.retry ?? defaultRetry;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(request);
      } catch (error) {
        if (!(error instanceof PeerError)) throw error;
        const mayRepeat =
          idempotent || error.kind === 'network' || error.status === 429 || error.status === 503;
        if (!error.retryable || !mayRepeat || attempt >= retry.attempts || error.details.outcomeUnknown)
          throw error;
        const retryAfterMs = (error.details.retryAfterS ?? 0) * 1000;
        // A long Retry-After is the job queue's business, not a request's.
        if (retryAfterMs > retry.backoff.maxMs) throw error;
        await sleep(Math.max(retryAfterMs, backoffDelayMs(attempt, retry.backoff)), undefined, {
          signal: request.signal,
        });
      }
    }
  }

  /** Throws, without sending, while the peer's own Retry-After has longer to run than a request waits. */
  private refuseIfHeldBack(request: RequestOptions): void {
    const pausedMs = this.limiter?.pausedForMs() ?? 0;
    if (pausedMs <= (this.options.maxPauseWaitMs ?? DEFAULT_MAX_PAUSE_WAIT_MS)) return;
    const retryAfterS = Math.ceil(pausedMs / 1000);
    throw new PeerError(
      this.peer,
      'http',
      `${this.peer} ${request.method} ${request.path}: not sent: ${this.peer} asked to wait ${retryAfterS} s more (429 Too Many Requests)`,
      { status: 429, retryAfterS },
    );
  }

  /** request() then validate the JSON body with a zod schema (a peer's garbage is an error, not a crash). */
  async json<S extends z.ZodType>(request: RequestOptions, schema: S): Promise<z.output<S>> {
    const started = performance.now();
    const response = await this.request(request);
    try {
      return this.parse(response.body, schema, request);
    } catch (error) {
      // JSON of the wrong shape: the peer answered garbage, as much as a body that is not JSON.
      if (error instanceof PeerError) this.report(false, started, error);
      throw error;
    }
  }

  parse<S extends z.ZodType>(
    body: unknown,
    schema: S,
    request: Pick<RequestOptions, 'method' | 'path'>,
  ): z.output<S> {
    const result = schema.safeParse(body);
    if (!result.success) {
      const first = result.error.issues[0];
      throw new PeerError(
        this.peer,
        'invalid-body',
        `${this.peer} ${request.method} ${request.path}: unexpected answer (${first?.path.join('.') || 'body'}: ${first?.message})`,
        { body },
      );
    }
    return result.data;
  }

  private async attempt(request: RequestOptions): Promise<HttpResponse> {
    this.refuseIfHeldBack(request);
    await this.limiter?.acquire(request.signal);
    const url = new URL(this.baseUrl + request.path);
    if (request.query) {
      const entries =
        request.query instanceof URLSearchParams
          ? [...request.query.entries()]
          : Object.entries(request.query);
      for (const [key, value] of entries)
        if (value !== undefined) url.searchParams.append(key, String(value));
    }
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs ?? 10_000;
    const signals = [AbortSignal.timeout(timeoutMs), ...(request.signal ? [request.signal] : [])];
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.options.headers,
      ...request.headers,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const label = `${this.peer} ${request.method} ${request.path}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.any(signals),
        // A followed redirect carries the peer's key (X-Api-Key) to wherever it points (issue #35.3).
        redirect: 'manual',
      });
      text = await response.text();
    } catch (cause) {
      request.signal?.throwIfAborted();
      const timedOut = cause instanceof DOMException && cause.name === 'TimeoutError';
      const sent = request.method !== 'GET';
      const error = timedOut
        ? new PeerError(this.peer, 'timeout', `${label}: no answer within ${timeoutMs} ms`, {
            outcomeUnknown: sent && !['PUT', 'DELETE'].includes(request.method),
          })
        : new PeerError(this.peer, 'network', `${label}: ${describeNetworkError(cause)}`, {}, { cause });
      this.report(false, started, error);
      throw error;
    }
    let body: unknown;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
        if (response.ok) {
          const error = new PeerError(this.peer, 'invalid-body', `${label}: answer is not JSON`, {
            status: response.status,
          });
          this.report(false, started, error);
          throw error;
        }
      }
    }
    if (!response.ok) {
      const retryAfterS = parseRetryAfter(response.headers.get('retry-after'));
      if (response.status === 429 && retryAfterS !== undefined) this.limiter?.pauseFor(retryAfterS * 1000);
      const statusReason = response.headers.get('x-status-reason') ?? undefined;
      const error = new PeerError(
        this.peer,
        'http',
        `${label}: HTTP ${response.status}${statusReason ? ` (${statusReason})` : ''}${redirectWords(response, url)}`,
        {
          status: response.status,
          body,
          ...(retryAfterS !== undefined ? { retryAfterS } : {}),
          ...(statusReason ? { statusReason } : {}),
        },
      );
      // What the answer says of the peer's state (a 404 about a record: none) is peer-health's to decide.
      this.report(false, started, error);
      throw error;
    }
    this.report(true, started);
    return { status: response.status, headers: response.headers, body };
  }

  private report(ok: boolean, started: number, error?: PeerError): void {
    this.options.onAttempt?.({
      ok,
      latencyMs: Math.round(performance.now() - started),
      ...(error ? { error } : {}),
    });
  }
}

/** ": redirects to <address>: not followed" for a 3xx, else nothing. */
function redirectWords(response: Response, url: URL): string {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status >= 400 || location === null) return '';
  return URL.canParse(location, url.href)
    ? `: redirects to ${new URL(location, url).href}: not followed`
    : '';
}

function describeNetworkError(cause: unknown): string {
  const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause;
  const code = (inner as { code?: string } | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  return inner instanceof Error ? inner.message : String(inner);
}

/** Retry-After is seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
