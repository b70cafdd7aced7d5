import { setTimeout as sleep } from 'node:timers/promises';
import { platformKeys, type PlatformKey } from '../../shared/platforms.js';
import { RateLimiter } from './rate-limiter.js';
import { HttpClient, type HttpClientOptions, type HttpResponse, type RequestOptions } from './http-client.js';
import { PeerError } from './peer-error.js';
import {
  analyticsAnswer,
  errorAnswer,
  historyAnswer,
  perPlatform,
  postAnswer,
  postItemAnswer,
  postMetrics,
  socialMetrics,
  uploadUrlAnswer,
  userAnswer,
  type MediaUploadUrl,
  type PostMetrics,
  type ProviderHistoryItem,
  type ProviderPlatformError,
  type ProviderPostId,
  type SocialMetrics,
} from './postsvc-wire.js';

/**
 * The posting provider (DESIGN §5.2, Ayrshare-shaped): post, delete, history (paged), social
 * and per-post analytics, user. Knows the wire and the provider's error shapes; knows nothing
 * about CRM records. Every failure is a PostsvcError carrying the spec's code (§7). The wire's
 * schemas sit beside it, in postsvc-wire.ts.
 */

export type PostsvcErrorCode = 'AUTH_ERROR' | 'RATE_LIMIT' | 'INVALID_MEDIA' | 'PLATFORM_ERROR';

export interface PostRequest {
  post: string;
  platforms: readonly PlatformKey[];
  /** ISO 8601; omitted: publish now. */
  scheduleDate?: string | null;
  mediaUrls?: readonly string[];
  shortenLinks?: boolean;
  idempotencyKey?: string;
}

export interface PostResult {
  /** `scheduled` or `success` (published now). */
  status: string;
  id: string;
  postIds: ProviderPostId[];
}

export type PostsvcStatus = 'scheduled' | 'success' | 'error' | 'deleted';

export interface HistoryQuery {
  limit?: number;
  offset?: number;
  status?: PostsvcStatus;
  platforms?: readonly PlatformKey[];
}

export type SocialAnalytics = Partial<
  Record<PlatformKey, { ok: true; metrics: SocialMetrics } | { ok: false; error: string }>
>;
export type PostAnalytics = Partial<
  Record<PlatformKey, { ok: true; metrics: PostMetrics } | { ok: false; error: string }>
>;

export interface RateLimitSnapshot {
  max: number;
  count: number;
  at: string;
}

/** A failed provider call, classified: the spec's code, the provider's own message and per-platform errors. */
export class PostsvcError extends PeerError {
  override name = 'PostsvcError';
  constructor(
    readonly code: PostsvcErrorCode,
    message: string,
    readonly providerMessage: string,
    readonly platformErrors: ProviderPlatformError[],
    base: PeerError | null,
    /** A partial failure: the provider created the post (this id) but some platforms refused it. */
    readonly created: { id: string; postIds: ProviderPostId[] } | null = null,
  ) {
    super('postsvc', base?.kind ?? 'http', message, base?.details ?? {}, { cause: base ?? undefined });
  }
}

/** The provider's code for "post id not found" (DESIGN §5.2: 404 with code 186). */
const POST_NOT_FOUND = 186;

/** The provider's 404 with code 186: it does not know the post id it was asked about. */
export function isUnknownPost(error: PostsvcError): boolean {
  const body = error.details.body;
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return error.status === 404 && code === POST_NOT_FOUND;
}

/** Provider error codes about media (sandbox: 136 media required, 138 unreachable). */
const MEDIA_CODES = new Set([136, 138]);

/** Maps an HTTP failure (status + body) to the spec's code and a readable message (DESIGN §5.2). */
export function classifyPostsvcFailure(
  status: number | undefined,
  body: unknown,
): { code: PostsvcErrorCode; providerMessage: string; platformErrors: ProviderPlatformError[] } {
  const parsed = errorAnswer.safeParse(body);
  const platformErrors = parsed.success ? (parsed.data.errors ?? []) : [];
  const topMessage = parsed.success ? parsed.data.message : undefined;
  const platformText = platformErrors
    .map((e) => [e.platform, e.message].filter(Boolean).join(': '))
    .filter(Boolean)
    .join('; ');
  const providerMessage =
    [topMessage, platformText].filter(Boolean).join(' — ') || (status ? `HTTP ${status}` : 'no answer');
  const codes = [parsed.success ? parsed.data.code : undefined, ...platformErrors.map((e) => e.code)];
  let code: PostsvcErrorCode = 'PLATFORM_ERROR';
  if (status === 401 || status === 403) code = 'AUTH_ERROR';
  else if (status === 429) code = 'RATE_LIMIT';
  else if (codes.some((c) => c !== undefined && MEDIA_CODES.has(c)) || /\bmedia\b/i.test(providerMessage))
    code = 'INVALID_MEDIA';
  return { code, providerMessage, platformErrors };
}

export interface PostsvcClientOptions {
  url: string;
  /** Absent only when the saved key is refused (`keyRefusedFor`): then nothing is sent. */
  apiKey?: string;
  /** Per request (default 15 s). A create that runs out of it has an unknown outcome. */
  timeoutMs?: number;
  onAttempt?: HttpClientOptions['onAttempt'];
  keyRefusedFor?: HttpClientOptions['keyRefusedFor'];
  /** Provider names of the platform keys (identity by default, DESIGN §5.2). */
  platformNames?: Partial<Record<PlatformKey, string>>;
  /** Requests per second before the client waits (default 5, bursts of 10). */
  perSecond?: number;
  /**
   * The longest a request waits for the provider's rate limit (default 3 s); a longer wait fails
   * it at once with RATE_LIMIT and the remaining wait as Retry-After, nothing sent.
   */
  maxWaitMs?: number;
  now?: () => number;
}

const ONE_ATTEMPT = { attempts: 1, backoff: { baseMs: 0, maxMs: 0, jitter: 0 } };

export class PostsvcClient {
  /** Reads, deletes: retried inside the request when that is safe. */
  private readonly http: HttpClient;
  /** Creates: one attempt only — a repeat is the job queue's decision, after reconciling. */
  private readonly createHttp: HttpClient;
  /** The health probe: one quick attempt, through the same limiter. */
  private readonly probeHttp: HttpClient;
  private readonly toProvider: (key: PlatformKey) => string;
  private readonly fromProvider: (name: string) => PlatformKey | null;
  private rate: RateLimitSnapshot | null = null;
  /** When this client sent each of its requests of the last minute (the provider's window). */
  private readonly sentAt: number[] = [];
  /** Until when the provider asked (429 + Retry-After) every request of this profile to wait. */
  private pausedUntil = 0;
  private readonly maxWaitMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PostsvcClientOptions) {
    const perSecond = options.perSecond ?? 5;
    // One limiter for the profile: posting, collection and the health probe hold each other back.
    const base = {
      peer: 'postsvc',
      baseUrl: options.url,
      ...(options.apiKey ? { headers: { Authorization: `Bearer ${options.apiKey}` } } : {}),
      timeoutMs: options.timeoutMs ?? 15_000,
      limiter: new RateLimiter(perSecond, perSecond * 2),
      ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
      ...(options.keyRefusedFor ? { keyRefusedFor: options.keyRefusedFor } : {}),
    } satisfies HttpClientOptions;
    this.http = new HttpClient(base);
    this.createHttp = new HttpClient({ ...base, retry: ONE_ATTEMPT });
    this.probeHttp = new HttpClient({ ...base, timeoutMs: 5_000, retry: ONE_ATTEMPT });
    const names = options.platformNames ?? {};
    const reverse = new Map<string, PlatformKey>(platformKeys.map((key) => [names[key] ?? key, key]));
    this.toProvider = (key) => names[key] ?? key;
    this.fromProvider = (name) => reverse.get(name) ?? null;
    this.now = options.now ?? Date.now;
    this.maxWaitMs = options.maxWaitMs ?? 3_000;
  }

  /** GET /user once, for peer health: any answer but a failure means reachable. */
  async probe(): Promise<void> {
    await this.send(this.probeHttp, { method: 'GET', path: '/user' });
  }

  /** The last `x-ratelimit-*` headers seen. */
  rateLimit(): RateLimitSnapshot | null {
    return this.rate;
  }

  /** POST /post. Throws PostsvcError for an HTTP failure, for `status:"error"` and for a partial failure. */
  async post(request: PostRequest, signal?: AbortSignal): Promise<PostResult> {
    const body = {
      post: request.post,
      platforms: request.platforms.map(this.toProvider),
      ...(request.scheduleDate ? { scheduleDate: request.scheduleDate } : {}),
      mediaUrls: [...(request.mediaUrls ?? [])],
      shortenLinks: request.shortenLinks ?? true,
      ...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
    };
    const response = await this.send(this.createHttp, {
      method: 'POST',
      path: '/post',
      body,
      idempotent: false,
      ...(signal ? { signal } : {}),
    });
    const answer = this.createHttp.parse(response.body, postAnswer, { method: 'POST', path: '/post' });
    const postIds = answer.postIds.map((entry) => ({
      ...entry,
      platform: this.fromProvider(entry.platform) ?? entry.platform,
    }));
    if (answer.status === 'error' || !answer.id) {
      const { code, providerMessage, platformErrors } = classifyPostsvcFailure(response.status, answer);
      const accepted = postIds.filter((entry) => entry.status !== 'error');
      throw new PostsvcError(
        code,
        `posting provider refused the post: ${providerMessage}`,
        providerMessage,
        platformErrors,
        null,
        answer.id && accepted.length > 0 ? { id: answer.id, postIds: accepted } : null,
      );
    }
    return { status: answer.status, id: answer.id, postIds };
  }

  /** DELETE /post: cancels a scheduled post or takes a published one down. `false` when the provider no longer knows the id. */
  async delete(id: string, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.send(this.http, {
        method: 'DELETE',
        path: '/post',
        body: { id },
        ...(signal ? { signal } : {}),
      });
      return true;
    } catch (error) {
      if (error instanceof PostsvcError && error.status === 404) return false;
      throw error;
    }
  }

  /**
   * PATCH /post `{id, scheduleDate}`: moves a post still scheduled to a new time, in place (no new
   * post, no quota; Premium plans and up, DESIGN §5.2). One attempt: whether a repeat is safe is the
   * caller's decision, after reading the post. A date in the past publishes it at once.
   */
  async move(id: string, scheduleDate: string, signal?: AbortSignal): Promise<void> {
    await this.send(this.createHttp, {
      method: 'PATCH',
      path: '/post',
      body: { id, scheduleDate },
      idempotent: false,
      ...(signal ? { signal } : {}),
    });
  }

  /** One page of GET /history, newest first. */
  async history(
    query: HistoryQuery = {},
    signal?: AbortSignal,
  ): Promise<{ items: ProviderHistoryItem[]; total: number | null }> {
    const params = new URLSearchParams();
    params.set('limit', String(query.limit ?? 100));
    if (query.offset) params.set('offset', String(query.offset));
    if (query.status) params.set('status', query.status);
    if (query.platforms?.length) params.set('platforms', query.platforms.map(this.toProvider).join(','));
    const response = await this.send(this.http, {
      method: 'GET',
      path: '/history',
      query: params,
      ...(signal ? { signal } : {}),
    });
    const answer = this.http.parse(response.body, historyAnswer, { method: 'GET', path: '/history' });
    return { items: answer.history.map((item) => this.ownNames(item)), total: answer.total ?? null };
  }

  /**
   * GET /post/{id}: one post as history shows it, found by id however far back it is (history
   * reaches the newest 1,000 only). null when the provider does not know the id (404, code 186).
   */
  async getPost(id: string, signal?: AbortSignal): Promise<ProviderHistoryItem | null> {
    const path = `/post/${encodeURIComponent(id)}`;
    try {
      const response = await this.send(this.http, { method: 'GET', path, ...(signal ? { signal } : {}) });
      return this.ownNames(this.http.parse(response.body, postItemAnswer, { method: 'GET', path }));
    } catch (error) {
      if (error instanceof PostsvcError && error.status === 404) return null;
      throw error;
    }
  }

  /** A provider post with the bridge's platform keys instead of the provider's names. */
  private ownNames(item: ProviderHistoryItem): ProviderHistoryItem {
    return {
      ...item,
      platforms: item.platforms.map((p) => this.fromProvider(p) ?? p),
      postIds: item.postIds.map((entry) => ({
        ...entry,
        platform: this.fromProvider(entry.platform) ?? entry.platform,
      })),
    };
  }

  /**
   * Every history item, paging by `offset` until a short page. A provider that ignores the
   * offset (answering the same page again) ends the walk instead of looping.
   */
  async historyAll(
    query: Omit<HistoryQuery, 'limit' | 'offset'> & { pageSize?: number; maxItems?: number } = {},
    signal?: AbortSignal,
  ): Promise<ProviderHistoryItem[]> {
    const pageSize = query.pageSize ?? 100;
    const maxItems = query.maxItems ?? 10_000;
    const seen = new Set<string>();
    const all: ProviderHistoryItem[] = [];
    for (let offset = 0; all.length < maxItems; offset += pageSize) {
      const page = await this.history(
        {
          limit: pageSize,
          offset,
          ...(query.status ? { status: query.status } : {}),
          ...(query.platforms ? { platforms: query.platforms } : {}),
        },
        signal,
      );
      const fresh = page.items.filter((item) => !seen.has(item.id));
      for (const item of fresh) seen.add(item.id);
      all.push(...fresh);
      if (
        page.items.length < pageSize ||
        fresh.length === 0 ||
        (page.total !== null && offset + pageSize >= page.total)
      )
        break;
    }
    return all.slice(0, maxItems);
  }

  /** POST /analytics/social: per platform, its metrics or why the provider could not give them. */
  async analyticsSocial(platforms: readonly PlatformKey[], signal?: AbortSignal): Promise<SocialAnalytics> {
    const response = await this.send(this.http, {
      method: 'POST',
      path: '/analytics/social',
      body: { platforms: platforms.map(this.toProvider) },
      idempotent: true,
      ...(signal ? { signal } : {}),
    });
    const body = this.http.parse(response.body, analyticsAnswer, {
      method: 'POST',
      path: '/analytics/social',
    });
    const out: SocialAnalytics = {};
    for (const platform of platforms) {
      out[platform] = perPlatform(body[this.toProvider(platform)], socialMetrics);
    }
    return out;
  }

  /** POST /analytics/post: per platform the post went to, its metrics or the provider's reason. */
  async analyticsPost(id: string, signal?: AbortSignal): Promise<PostAnalytics> {
    const response = await this.send(this.http, {
      method: 'POST',
      path: '/analytics/post',
      body: { id },
      idempotent: true,
      ...(signal ? { signal } : {}),
    });
    const body = this.http.parse(response.body, analyticsAnswer, {
      method: 'POST',
      path: '/analytics/post',
    });
    const out: PostAnalytics = {};
    for (const [name, value] of Object.entries(body)) {
      const platform = this.fromProvider(name);
      if (platform) out[platform] = perPlatform(value, postMetrics);
    }
    return out;
  }

  /**
   * GET /media/uploadUrl (Premium plans and up, DESIGN §5.2): where to PUT a file (once, within 30
   * min, with the MIME type answered) and the URL that serves it for 30 days. A read: retried.
   */
  async mediaUploadUrl(
    fileName: string,
    contentType: 'mp4' | 'mov' | 'png' | 'jpg',
    signal?: AbortSignal,
  ): Promise<MediaUploadUrl> {
    const response = await this.send(this.http, {
      method: 'GET',
      path: '/media/uploadUrl',
      query: { fileName, contentType },
      ...(signal ? { signal } : {}),
    });
    return this.http.parse(response.body, uploadUrlAnswer, { method: 'GET', path: '/media/uploadUrl' });
  }

  /** GET /user: the provider's health check; the platforms linked to the profile. */
  async user(signal?: AbortSignal): Promise<{ activeSocialAccounts: PlatformKey[] }> {
    const response = await this.send(this.http, {
      method: 'GET',
      path: '/user',
      ...(signal ? { signal } : {}),
    });
    const answer = this.http.parse(response.body, userAnswer, { method: 'GET', path: '/user' });
    return {
      activeSocialAccounts: answer.activeSocialAccounts
        .map(this.fromProvider)
        .filter((p): p is PlatformKey => p !== null),
    };
  }

  private async send(http: HttpClient, request: RequestOptions): Promise<HttpResponse> {
    await this.throttle(request);
    try {
      const response = await http.request(request);
      this.observe(response.headers);
      return response;
    } catch (error) {
      if (error instanceof PeerError && error.status === 429) {
        // Every request of this profile waits, reads and creates alike (they share the provider's limit).
        const waitS = error.details.retryAfterS ?? DEFAULT_RETRY_AFTER_S;
        this.pausedUntil = Math.max(this.pausedUntil, this.now() + waitS * 1000);
      }
      throw toPostsvcError(error);
    }
  }

  private observe(headers: Headers): void {
    const max = Number(headers.get('x-ratelimit-max'));
    const count = Number(headers.get('x-ratelimit-count'));
    if (Number.isFinite(max) && max > 0 && Number.isFinite(count)) {
      this.rate = { max, count, at: new Date(this.now()).toISOString() };
    }
  }

  /**
   * The client throttles itself instead of collecting 429s: a profile with 1,000 of them a day
   * is suspended (DESIGN §5.2). After a 429 every request waits out its Retry-After. Once the
   * provider has announced its limit (x-ratelimit-max, requests a minute), no more than that
   * many requests of this client — the profile's only one in the bridge: posting, collection
   * and the health probe alike — go out in any minute: a request waits until the oldest of
   * the window leaves it. A wait longer than `maxWaitMs` is not slept through inside a
   * request: the request fails at once with RATE_LIMIT and the remaining wait as Retry-After,
   * without reaching the provider (the job queue, or the operator, tries again then).
   */
  private async throttle(request: RequestOptions): Promise<void> {
    const label = `postsvc ${request.method} ${request.path}`;
    const paused = this.pausedUntil - this.now();
    if (paused > 0) {
      if (paused > this.maxWaitMs) throw heldBack(label, paused, 'it answered 429 Too Many Requests');
      await sleep(paused, undefined, { signal: request.signal });
    }
    for (;;) {
      const now = this.now();
      while (this.sentAt.length > 0 && this.sentAt[0]! <= now - WINDOW_MS) this.sentAt.shift();
      const max = this.rate?.max;
      if (max === undefined || this.sentAt.length < max) break;
      const wait = this.sentAt[this.sentAt.length - max]! + WINDOW_MS - now;
      if (wait > this.maxWaitMs) {
        throw heldBack(label, wait, `the ${max} requests a minute it allows are used`);
      }
      await sleep(wait, undefined, { signal: request.signal });
    }
    this.sentAt.push(this.now());
  }
}

/** The provider's rate-limit window (x-ratelimit-max is per minute). */
const WINDOW_MS = 60_000;

/** 429s without a Retry-After still hold every request back this long. */
const DEFAULT_RETRY_AFTER_S = 5;

/** A request the client did not send because the provider's rate limit says wait. */
function heldBack(label: string, waitMs: number, why: string): PostsvcError {
  const retryAfterS = Math.ceil(waitMs / 1000);
  const message = `not sent: the posting provider's rate limit asks to wait ${retryAfterS} s more (${why})`;
  return new PostsvcError(
    'RATE_LIMIT',
    `posting provider: ${message}`,
    message,
    [],
    new PeerError('postsvc', 'http', `${label}: ${message}`, { status: 429, retryAfterS }),
  );
}

/** Any failure of a provider call as a PostsvcError (network and timeouts keep their kind and outcome flag). */
export function toPostsvcError(error: unknown): unknown {
  if (error instanceof PostsvcError || !(error instanceof PeerError)) return error;
  if (error.kind === 'http') {
    const { code, providerMessage, platformErrors } = classifyPostsvcFailure(
      error.status,
      error.details.body,
    );
    const partial = errorAnswer.safeParse(error.details.body);
    const accepted = partial.success
      ? (partial.data.postIds ?? []).filter((entry) => entry.status !== 'error')
      : [];
    const created =
      partial.success && partial.data.id && accepted.length > 0
        ? { id: partial.data.id, postIds: accepted }
        : null;
    return new PostsvcError(
      code,
      `posting provider: ${providerMessage}`,
      providerMessage,
      platformErrors,
      error,
      created,
    );
  }
  const message =
    error.kind === 'timeout'
      ? `posting provider did not answer in time (${error.message})`
      : `posting provider: ${error.message}`;
  return new PostsvcError('PLATFORM_ERROR', message, error.message, [], error);
}
