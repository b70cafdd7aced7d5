import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  broadcastStatus,
  createBroadcast,
  deleteBroadcast,
  endBroadcast,
  listBroadcasts,
  syncBroadcasts,
} from '../../../shared/api/broadcasts.js';
import type { BroadcastRecord, CreateBroadcastInput } from '../../../shared/api/broadcasts.js';
import type { ResponseOf } from '../../../shared/api/contract.js';
import { listPublishing, retryPublish } from '../../../shared/api/publishing.js';
import { startSandboxEncoder } from '../../../shared/api/sandbox.js';
import { callApi } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';

/** Broadcast and publishing events on /events refresh these (api/live/event-invalidation.ts). */
export const broadcastKeys = {
  list: queryKeys.broadcasts,
  status: (id: string) => [...queryKeys.broadcasts, 'status', id] as const,
  publishing: queryKeys.publishing,
};

/**
 * Polled as well as refreshed by /events: the host sync writes viewer counts and stream health
 * without an event (only a status change has one, `broadcast.status`, which ON AIR follows).
 */
const POLL_MS = 15_000;

export type BroadcastList = ResponseOf<typeof listBroadcasts>;
export type CreatedBroadcast = ResponseOf<typeof createBroadcast>;

/** GET /api/broadcasts: the StreamhostBroadcast records and the state of the 30 s sync. */
export function useBroadcasts() {
  return useQuery({
    queryKey: broadcastKeys.list,
    queryFn: ({ signal }) => callApi(listBroadcasts, { signal }),
    refetchInterval: POLL_MS,
  });
}

/**
 * The broadcasts live now, for the header (ON AIR, the recorder's warning). Shares the list's query
 * without polling it: `broadcast.status`, `broadcast.created` and `broadcast.deleted` events
 * refresh the list (api/live/event-invalidation.ts).
 */
export function useLiveBroadcasts(): BroadcastRecord[] {
  const broadcasts = useQuery({
    queryKey: broadcastKeys.list,
    queryFn: ({ signal }) => callApi(listBroadcasts, { signal }),
  });
  return broadcasts.data?.data.filter((record) => record.status === 'live') ?? [];
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

/** End (DESIGN §5.3): complete at the host, kept; never a delete. */
export function useEndBroadcast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (broadcastId: string) => callApi(endBroadcast, { body: { broadcastId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.list }),
  });
}

/** Sandbox only: the simulated encoder connects and the host takes the broadcast live. */
export function useStartSandboxEncoder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (broadcastId: string) => callApi(startSandboxEncoder, { body: { broadcastId } }),
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

/**
 * GET /api/publishing: PlatformPublish records per ContentProduction, and the route table.
 * Not polled: every change is announced (publish.* events, platform-created/updated webhooks).
 */
export function usePublishing() {
  return useQuery({
    queryKey: broadcastKeys.publishing,
    queryFn: ({ signal }) => callApi(listPublishing, { signal }),
  });
}

export function useRetryPublish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(retryPublish, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: broadcastKeys.publishing }),
  });
}
