import { createHash } from 'node:crypto';

/** The post as it is sent to the provider: what its content hash covers. */
export interface OutgoingPost {
  post: string;
  platforms: readonly string[];
  mediaUrls: readonly string[];
  /** ISO 8601, or null for "publish now". */
  scheduleDate: string | null;
}

/** Hash of content and time (DESIGN §6.2): the same post at the same time hashes the same. */
export function contentHash(post: OutgoingPost): string {
  const canonical = JSON.stringify([
    post.post,
    [...post.platforms].sort(),
    [...post.mediaUrls],
    post.scheduleDate === null ? null : new Date(post.scheduleDate).toISOString().slice(0, 19),
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 24);
}

/** Hash of what a post says and where (text, platforms, media), apart from its time (issue #36.3). */
export function bodyHash(post: Omit<OutgoingPost, 'scheduleDate'>): string {
  const canonical = JSON.stringify([post.post, [...post.platforms].sort(), [...post.mediaUrls]]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 24);
}

/**
 * `idempotencyKey` of a CRM SocialPost (DESIGN §6.2): its id + the content hash. A later
 * generation (the post was cancelled, then scheduled again) gets a suffix, so the provider
 * does not answer with the cancelled post it remembers under the first key.
 */
export function socialPostKey(socialPostId: string, hash: string, generation: number): string {
  return generation <= 1 ? `${socialPostId}:${hash}` : `${socialPostId}:${hash}:g${generation}`;
}

/** A post scheduled through the API: the caller's key when it gave one, else a fresh one. */
export function apiPostKey(clientKey: string | undefined, random: () => string): string {
  return clientKey ? `api:${clientKey}` : `api:${random()}`;
}

/** Today's UTC day and when the next one starts: the provider's quota day (spec §8). */
export function quotaDay(now: Date): { day: string; resetsAt: Date } {
  const day = now.toISOString().slice(0, 10);
  return { day, resetsAt: new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000) };
}
