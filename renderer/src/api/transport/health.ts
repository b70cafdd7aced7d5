import { queryOptions, useQuery } from '@tanstack/react-query';
import { getHealth } from '../../../../shared/api/health.js';
import { callApi } from './client.js';
import { queryKeys } from './query-keys.js';

/**
 * GET /health with the key: bridge status, peers, job queue, quota, last collection.
 * Polled: no event announces a peer becoming reachable or not, nor the quota's daily reset.
 * Not retried: a failed /health is itself the news (the bridge is unreachable), and the event
 * stream's drop asks for it at once (use-live-activity.ts).
 */
export function useHealth() {
  return useQuery(healthQuery);
}

/** useHealth's query, for starting it before a page renders (overview/prefetch.ts). */
export const healthQuery = queryOptions({
  queryKey: queryKeys.health,
  queryFn: ({ signal }) => callApi(getHealth, { signal }),
  // While the bridge is unreachable, ask more often: the operator waits for it to come back.
  refetchInterval: (query) => (query.state.status === 'error' ? 3_000 : 10_000),
  retry: false,
});

/**
 * /health as the header last read it, for a component that only needs to know (a peer back, a
 * peer holding a request): it neither polls nor asks again on mount, the header's query does.
 */
export function useHealthReading() {
  return useQuery({
    ...healthQuery,
    refetchInterval: false,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
  });
}
