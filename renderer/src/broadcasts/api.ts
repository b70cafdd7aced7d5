import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  broadcastStatus,
  createBroadcast,
  deleteBroadcast,
  listBroadcasts,
  syncBroadcasts,
} from '../../../shared/api/broadcasts.js';
import type { CreateBroadcastInput } from '../../../shared/api/broadcasts.js';
import type { ResponseOf } from '../../../shared/api/contract.js';
import { listPublishing, retryPublish } from '../../../shared/api/publishing.js';
import { callApi } from '../api/client.js';
import { useLiveActivity } from '../api/use-live-activity.js';

export const broadcastKeys = {
  list: ['broadcasts'] as const,
  status: (id: string) => ['broadcasts', 'status', id] as const,
  publishing: ['publishing'] as const,
};

/** Live updates come from /events; polling is only the fallback, and never faster than every 10 s. */
const POLL_MS = 15_000;

export type BroadcastList = ResponseOf<typeof listBroadcasts>;
export type PublishingList = ResponseOf<typeof listPublishing>;
export type SyncOutcome = ResponseOf<typeof syncBroadcasts>;
export type CreatedBroadcast = ResponseOf<typeof createBroadcast>;

/** GET /api/broadcasts: the StreamhostBroadcast records and the state of the 30 s sync. */
export function useBroadcasts() {
  return useQuery({
    queryKey: broadcastKeys.list,
    queryFn: ({ signal }) => callApi(listBroadcasts, { signal }),
    refetchInterval: POLL_MS,
  });
}

/** GET /streamhost/status/:id while a row is open: stream health and start time from the host. */
export function useBroadcastStatus(broadcastId: string | null) {
  return useQuery({
    queryKey: broadcastKeys.status(broadcastId ?? ''),
    queryFn: ({ signal }) => callApi(broadcastStatus, { signal, params: { broadcastId: broadcastId ?? '' } }),
    enabled: broadcastId !== null,
    refetchInterval: POLL_MS,
  });
}

export function useCreateBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBroadcastInput) => callApi(createBroadcast, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.list }),
  });
}

export function useDeleteBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (broadcastId: string) => callApi(deleteBroadcast, { body: { broadcastId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.list }),
  });
}

export function useSyncBroadcasts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(syncBroadcasts),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.list }),
  });
}

/** GET /api/publishing: PlatformPublish records per ContentProduction, and the route table. */
export function usePublishing() {
  return useQuery({
    queryKey: broadcastKeys.publishing,
    queryFn: ({ signal }) => callApi(listPublishing, { signal }),
    refetchInterval: POLL_MS,
  });
}

export function useRetryPublish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(retryPublish, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.publishing }),
  });
}

const REFRESH_DELAY_MS = 400;

/**
 * Refreshes the broadcast list when the bridge reports a broadcast change on /events, and the
 * publishing panel when a publish moves; a burst of events gives one refetch each.
 */
export function useLiveBroadcastRefresh(): void {
  const queryClient = useQueryClient();
  const { events } = useLiveActivity();
  // Events from before the page opened are not news.
  const seen = useRef(events[0]?.id ?? 0);
  const pending = useRef({ broadcasts: false, publishing: false });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    const fresh = events.filter((event) => event.id > seen.current);
    if (fresh.length === 0) return;
    seen.current = Math.max(...fresh.map((event) => event.id));
    if (fresh.some((event) => event.type.startsWith('broadcast.'))) pending.current.broadcasts = true;
    if (fresh.some((event) => event.type.startsWith('publish.'))) pending.current.publishing = true;
    if (timer.current !== null || (!pending.current.broadcasts && !pending.current.publishing)) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      const { broadcasts, publishing } = pending.current;
      pending.current = { broadcasts: false, publishing: false };
      if (broadcasts) void queryClient.invalidateQueries({ queryKey: broadcastKeys.list });
      if (publishing) void queryClient.invalidateQueries({ queryKey: broadcastKeys.publishing });
    }, REFRESH_DELAY_MS);
  }, [events, queryClient]);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
}
