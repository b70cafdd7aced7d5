import type { PlatformKey } from '../../../shared/platforms.js';
import { PostsvcClient, type PostsvcClientOptions } from '../../peers/postsvc.js';

/**
 * The provider calls collection needs (DESIGN §5.2): linked accounts, per-platform social
 * analytics, the post history (paged) and per-post analytics: the analytics half of the shared
 * provider client, as the interface the collector depends on.
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

export interface ProviderSourceOptions {
  url: string;
  apiKey: string;
  /** Requests per second the client allows itself (bursts of twice that). */
  perSecond: number;
  onAttempt?: PostsvcClientOptions['onAttempt'];
}

/**
 * The shared provider client (main/clients/postsvc.ts: HttpClient with timeouts, retries of
 * reads, RateLimiter, 429 pause, spacing near the provider's advertised limit), with its own
 * instance so a long collection paces itself without holding up posting.
 */
export function createProviderSource(options: ProviderSourceOptions): AnalyticsSource {
  return new PostsvcClient({
    url: options.url,
    apiKey: options.apiKey,
    perSecond: options.perSecond,
    ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
  });
}
