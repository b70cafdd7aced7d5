import type { QueryClient } from '@tanstack/react-query';
import { activityQuery } from '../activity/api.js';
import { healthQuery } from '../api/transport/health.js';
import { guestHoldsQuery } from '../guests/api.js';
import { recorderFilenameQuery } from '../recorder/api.js';

/** The live feed's length; the Overview's panel and this prefetch ask the same page. */
export const FEED_SIZE = 12;

/** The Overview is the page at `#/` (key-store.ts has already turned a `#key=` link into it). */
export function opensOverview(hash: string): boolean {
  return hash === '' || hash === '#' || hash === '#/';
}

/**
 * Starts the Overview's queries (the panels' own: same keys, same functions) before the first
 * render. Their answers were asked by the preload script while the bundle loaded and are usually
 * in by now, so main.tsx can wait a moment for them and render the Overview once, with data,
 * instead of skeletons and then a second render. Settles when all are in; never rejects (a
 * failure is the panel's to show, from the query's state).
 */
export function prefetchOverview(queryClient: QueryClient): Promise<unknown> {
  return Promise.allSettled([
    queryClient.prefetchQuery(healthQuery),
    queryClient.prefetchQuery(recorderFilenameQuery),
    queryClient.prefetchQuery(guestHoldsQuery),
    queryClient.prefetchInfiniteQuery(activityQuery({}, FEED_SIZE)),
  ]);
}
