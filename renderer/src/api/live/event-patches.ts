import type { QueryClient } from '@tanstack/react-query';
import type { ActivityEvent } from '../../../../shared/activity-events.js';
import type { listBroadcasts } from '../../../../shared/api/broadcasts.js';
import type { ResponseOf } from '../../../../shared/api/contract.js';
import { queryKeys } from '../transport/query-keys.js';

type BroadcastList = ResponseOf<typeof listBroadcasts>;

/**
 * What an event says outright, written into the cache at once instead of after the burst's
 * refetch (event-invalidation.ts still refetches): a broadcast going live shows ON AIR on
 * every open page as soon as the bridge sees it (DESIGN §6.9: within 6 s of the host).
 */
export function patchCacheFromEvent(queryClient: QueryClient, event: ActivityEvent): void {
  if (event.type !== 'broadcast.status') return;
  const { id, to, viewerCount } = (event as ActivityEvent<'broadcast.status'>).data;
  queryClient.setQueryData<BroadcastList>(queryKeys.broadcasts, (list) =>
    list
      ? {
          ...list,
          data: list.data.map((record) =>
            record.id === id ? { ...record, status: to, viewerCount } : record,
          ),
        }
      : list,
  );
}
