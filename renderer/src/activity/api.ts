import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { listActivity, listJobs } from '../../../shared/api/activity.js';
import type { ActivityLevel } from '../../../shared/api/activity.js';
import type { ResponseOf } from '../../../shared/api/contract.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';
import type { JobStatus } from './filters.js';

export interface ActivityFilter {
  level?: ActivityLevel;
  /** The start of the event type: "posting" lists posting.scheduled, posting.cancelled… */
  typePrefix?: string;
  /** Text the message holds. */
  q?: string;
}

export type Job = ResponseOf<typeof listJobs>['data'][number];

const PAGE_SIZE = 50;

/** GET /api/activity, newest first, paged backwards with `beforeId` ("load older"). */
export function useActivity(filter: ActivityFilter = {}, pageSize: number = PAGE_SIZE) {
  return useInfiniteQuery(activityQuery(filter, pageSize));
}

/** useActivity's query, for starting it before a page renders (overview/prefetch.ts). */
export function activityQuery(filter: ActivityFilter = {}, pageSize: number = PAGE_SIZE) {
  return infiniteQueryOptions({
    queryKey: [...queryKeys.activity, filter, pageSize],
    queryFn: ({ signal, pageParam }) =>
      callApi(listActivity, {
        signal,
        query: {
          limit: pageSize,
          level: filter.level,
          typePrefix: filter.typePrefix,
          q: filter.q,
          beforeId: pageParam,
        },
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.data.length < pageSize ? undefined : lastPage.data[lastPage.data.length - 1]?.id,
  });
}

/**
 * GET /api/jobs: the durable job queue, newest first. Every event refreshes it
 * (event-invalidation.ts); it is polled only while a listed job is pending or running, since
 * no event announces a job starting to run.
 */
export function useJobs(status?: JobStatus) {
  return useQuery({
    queryKey: [...queryKeys.jobs, status ?? 'all'],
    queryFn: ({ signal }) => callApi(listJobs, { signal, query: { status, limit: 100 } }),
    refetchInterval: (query) =>
      query.state.data?.data.some((job) => job.status === 'pending' || job.status === 'running')
        ? 5_000
        : false,
  });
}
