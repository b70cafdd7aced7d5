import type { PublishedPosts } from '../../../shared/api/analytics.js';
import type { PostView } from '../../../shared/api/posting.js';
import { listPostViews } from './posts-view.js';

/** The provider's published posts as collections measured them (analytics' offer). */
export interface MeasuredPosts {
  postsvcIds: readonly string[];
  asOf: string | null;
}

/**
 * The one definition of the published posts (issue #41.4): those the posting provider reported
 * published to a collection. Posts lists the ones this bridge or a CRM SocialPost sent; any other
 * was published at the provider by other means, and is said so on both pages.
 */
export function publishedPostsOf(measured: MeasuredPosts, listed: readonly PostView[]): PublishedPosts {
  const onPosts = new Set<string>();
  for (const view of listed) {
    if (view.postsvcId) onPosts.add(view.postsvcId);
    for (const state of view.platformStates) if (state.postsvcId) onPosts.add(state.postsvcId);
  }
  const ids = [...new Set(measured.postsvcIds)];
  const elsewhere = ids.filter((id) => !onPosts.has(id));
  return { atProvider: ids.length, onPosts: ids.length - elsewhere.length, elsewhere, asOf: measured.asOf };
}

/**
 * GET /api/posts' list and its published posts, from one read: the whole list only (a window of
 * it does not say which posts Posts lists); null when the CRM could not be read, or nothing measures.
 */
export async function listWithPublished(
  deps: Parameters<typeof listPostViews>[0] & { measured: () => MeasuredPosts | null },
  query: Parameters<typeof listPostViews>[1],
) {
  const list = await listPostViews(deps, query);
  const measured = deps.measured();
  const whole = !query.from && !query.to && list.data.length < query.limit;
  const crmUnread = deps.records !== null && list.crmError !== null;
  const published = measured && whole && !crmUnread ? publishedPostsOf(measured, list.data) : null;
  return { ...list, published };
}
