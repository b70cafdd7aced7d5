import { useQuery } from '@tanstack/react-query';
import { getHealth } from '../../../shared/api/health.js';
import { callApi } from './client.js';
import { queryKeys } from './query-keys.js';

/** GET /health with the key: bridge status, peers, job queue, quota, last collection. Polled. */
export function useHealth() {
  return useQuery({
    queryKey: queryKeys.health,
    queryFn: ({ signal }) => callApi(getHealth, { signal }),
    refetchInterval: 10_000,
  });
}
