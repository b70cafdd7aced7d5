import type { PlatformKey } from '../../../shared/platforms.js';

/**
 * The provider calls collection needs (DESIGN §5.2): linked accounts, per-platform social
 * analytics, the post history (paged) and per-post analytics: the analytics half of the one
 * shared provider client (peers/postsvc.ts), as the interface the collector depends on.
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
