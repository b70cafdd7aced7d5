import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  getContentMetrics,
  getFollowers,
  getSocialMetrics,
  getTopPosts,
  listCollectionRuns,
  startCollection,
  type CollectionProgress,
  type TopPostMetric,
} from '../../../shared/api/analytics.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';
import { useLiveActivity } from '../api/live/use-live-activity.js';
import { daysBetween } from './filters.js';

/** Every analytics query lives under this key: a finished collection refreshes them all. */
const root = queryKeys.analytics;

export function useSocialMetrics(start: string, end: string, platform: PlatformKey | null) {
  return useQuery({
    queryKey: [...root, 'social', start, end, platform],
    queryFn: ({ signal }) =>
      callApi(getSocialMetrics, {
        query: { startDate: start, endDate: end, ...(platform ? { platform } : {}) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Follower counts from `start` (the API counts days back from today) up to `end`. */
export function useFollowers(start: string, end: string, today: string, platform: PlatformKey | null) {
  const days = Math.max(1, daysBetween(start, today));
  return useQuery({
    queryKey: [...root, 'followers', days, platform],
    queryFn: ({ signal }) =>
      callApi(getFollowers, { query: { days, ...(platform ? { platform } : {}) }, signal }),
    select: (answer) => answer.data.filter((row) => row.date >= start && row.date <= end),
    placeholderData: keepPreviousData,
  });
}

export function useTopPosts(metric: TopPostMetric, limit: number, platform: PlatformKey | null) {
  return useQuery({
    queryKey: [...root, 'top', metric, limit, platform],
    queryFn: ({ signal }) =>
      callApi(getTopPosts, { query: { metric, limit, ...(platform ? { platform } : {}) }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The latest snapshot of each content item on each platform within the range. */
export function useContentMetrics(start: string, end: string) {
  return useQuery({
    queryKey: [...root, 'content', start, end],
    queryFn: ({ signal }) =>
      callApi(getContentMetrics, { query: { startDate: start, endDate: end, latest: 'true' }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCollectionRuns() {
  return useQuery({
    queryKey: queryKeys.analyticsRuns,
    queryFn: ({ signal }) => callApi(listCollectionRuns, { query: { limit: 10 }, signal }),
  });
}

export function useStartCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(startCollection),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.analyticsRuns }),
  });
}

/**
 * Live collection state from /events: the newest progress of `runId`. (A run that starts or
 * finishes refreshes the analytics queries through api/live/event-invalidation.ts.)
 */
export function useCollectionLive(runId: number | null): CollectionProgress | null {
  const { events } = useLiveActivity();
  return useMemo(() => {
    if (runId === null) return null;
    for (const event of events) {
      if (event.type === 'collection.progress' && event.data.runId === runId) return event.data;
    }
    return null;
  }, [events, runId]);
}
