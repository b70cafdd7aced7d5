import type { Alarm } from '../../../shared/api/health.js';
import type { PostingRepo } from './repo.js';

/** A post the provider has not confirmed this long after its time raises an alarm (DESIGN §6.9). */
export const UNCONFIRMED_ALARM_MS = 10 * 60_000;
/** Older unconfirmed posts are left to the Posts page ("unconfirmed", Check again). */
const ALARM_WINDOW_MS = 7 * 86_400_000;

/** Posts still `scheduled` at the provider 10 min after their time. */
export function unconfirmedPostAlarms(repo: PostingRepo, now: Date): Alarm[] {
  const before = new Date(now.getTime() - UNCONFIRMED_ALARM_MS).toISOString();
  const from = new Date(now.getTime() - ALARM_WINDOW_MS).toISOString();
  return repo.unconfirmed(from, before, 20).map((row) => ({
    id: `post:${row.id}`,
    kind: 'post',
    message: `post ${row.social_post_id ?? `#${row.id}`} to ${row.platforms.join(', ')} was due at ${row.publish_at} and the provider has not confirmed it`,
    since: row.publish_at,
  }));
}
