import { z } from 'zod';
import { platformKeys, type PlatformKey } from '../../../shared/platforms.js';
import { HttpClient, type HttpClientOptions } from '../../clients/http-client.js';

/**
 * The provider calls collection needs (DESIGN §5.2): linked accounts, per-platform social
 * analytics, the post history (paged) and per-post analytics. Shaped like the analytics half
 * of the shared provider client (main/clients/postsvc.ts), so either can stand behind it.
 */
export type PlatformResult<M> = { ok: true; metrics: M } | { ok: false; error: string };

export interface SocialNumbers {
  followers: number;
  impressions: number;
  engagement: number;
  reach: number;
}
export interface PostNumbers {
  likes: number;
  comments: number;
  shares: number;
  impressions: number;
}

export interface HistoryPost {
  id: string;
  post: string;
  status: string;
  postIds: ReadonlyArray<{ platform: string; status: string; id?: string | null | undefined }>;
}

export interface AnalyticsSource {
  user(signal?: AbortSignal): Promise<{ activeSocialAccounts: PlatformKey[] }>;
  analyticsSocial(
    platforms: readonly PlatformKey[],
    signal?: AbortSignal,
  ): Promise<Partial<Record<PlatformKey, PlatformResult<SocialNumbers>>>>;
  history(
    query: { limit?: number; offset?: number; status?: 'success' },
    signal?: AbortSignal,
  ): Promise<{ items: HistoryPost[]; total: number | null }>;
  analyticsPost(
    id: string,
    signal?: AbortSignal,
  ): Promise<Partial<Record<PlatformKey, PlatformResult<PostNumbers>>>>;
}

const num = z.number().catch(0).default(0);
const socialNumbers = z.looseObject({ followers: num, impressions: num, engagement: num, reach: num });
const postNumbers = z.looseObject({ likes: num, comments: num, shares: num, impressions: num });
const platformFailure = z.looseObject({
  status: z.literal('error'),
  code: z.number().optional(),
  message: z.string().optional(),
});
const historyAnswer = z.looseObject({
  history: z.array(
    z.looseObject({
      id: z.string().min(1),
      post: z.string().default(''),
      status: z.string(),
      postIds: z
        .array(z.looseObject({ platform: z.string(), status: z.string(), id: z.string().nullish() }))
        .default([]),
    }),
  ),
  total: z.number().optional(),
});
const userAnswer = z.looseObject({ activeSocialAccounts: z.array(z.string()).default([]) });
const objectAnswer = z.record(z.string(), z.unknown());

const isPlatformKey = (value: string): value is PlatformKey =>
  (platformKeys as readonly string[]).includes(value);

function perPlatform<M>(value: unknown, metrics: z.ZodType<M>): PlatformResult<M> {
  const failure = platformFailure.safeParse(value);
  if (failure.success) {
    return { ok: false, error: failure.data.message ?? `provider error ${failure.data.code ?? ''}`.trim() };
  }
  const ok = z.object({ analytics: metrics }).safeParse(value);
  return ok.success
    ? { ok: true, metrics: ok.data.analytics }
    : { ok: false, error: 'no analytics in the answer' };
}

export interface ProviderSourceOptions {
  url: string;
  apiKey: string;
  /** Requests per second the client allows itself (bursts of twice that). */
  perSecond: number;
  onAttempt?: HttpClientOptions['onAttempt'];
}

/** The analytics calls on the shared HttpClient (timeouts, retries of reads, RateLimiter, 429 pause). */
export function createProviderSource(options: ProviderSourceOptions): AnalyticsSource {
  const http = new HttpClient({
    peer: 'postsvc',
    baseUrl: options.url,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    timeoutMs: 15_000,
    rateLimit: { perSecond: options.perSecond, burst: Math.max(1, options.perSecond * 2) },
    ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
  });
  const post = (path: string, body: unknown, signal?: AbortSignal) =>
    // Analytics reads change nothing at the provider: repeating them is harmless.
    http.json({ method: 'POST', path, body, idempotent: true, ...(signal ? { signal } : {}) }, objectAnswer);

  return {
    async user(signal) {
      const answer = await http.json(
        { method: 'GET', path: '/user', ...(signal ? { signal } : {}) },
        userAnswer,
      );
      return { activeSocialAccounts: answer.activeSocialAccounts.filter(isPlatformKey) };
    },
    async analyticsSocial(platforms, signal) {
      const body = await post('/analytics/social', { platforms }, signal);
      return Object.fromEntries(
        platforms.map((platform) => [platform, perPlatform(body[platform], socialNumbers)]),
      );
    },
    async history(query, signal) {
      const answer = await http.json(
        {
          method: 'GET',
          path: '/history',
          query: { limit: query.limit ?? 100, offset: query.offset, status: query.status },
          ...(signal ? { signal } : {}),
        },
        historyAnswer,
      );
      return { items: answer.history, total: answer.total ?? null };
    },
    async analyticsPost(id, signal) {
      const body = await post('/analytics/post', { id }, signal);
      const out: Partial<Record<PlatformKey, PlatformResult<PostNumbers>>> = {};
      for (const [name, value] of Object.entries(body)) {
        if (isPlatformKey(name)) out[name] = perPlatform(value, postNumbers);
      }
      return out;
    },
  };
}
