import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import { addPendingKeys, staleKeysFor } from './event-invalidation.js';
import { liveActivity } from './live-activity.js';
import type { LiveSnapshot } from './live-activity.js';
import { queryKeys } from './query-keys.js';

/** Live state of GET /events: connection status and the events received since the page loaded. */
export function useLiveActivity(): LiveSnapshot {
  return useSyncExternalStore(liveActivity.subscribe, liveActivity.getSnapshot);
}

const REFRESH_DELAY_MS = 750;

/**
 * Keeps the one /events connection open while there is a key. Each event makes stale what its
 * row of the invalidation table names (event-invalidation.ts); the first event of a burst
 * starts the timer and every key the burst named is refetched once when it fires. A reconnect
 * refetches the lists (events may have been missed).
 */
export function useLiveActivityConnection(key: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (key === null) return;
    let pending: QueryKey[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    liveActivity.start(key, {
      onEvent: (event) => {
        pending = addPendingKeys(pending, staleKeysFor(event));
        if (timer) return;
        timer = setTimeout(() => {
          timer = null;
          const keys = pending;
          pending = [];
          for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
        }, REFRESH_DELAY_MS);
      },
      onReconnect: () => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.activity });
        void queryClient.invalidateQueries({ queryKey: queryKeys.jobs });
      },
    });
    return () => {
      if (timer) clearTimeout(timer);
      liveActivity.stop();
    };
  }, [key, queryClient]);
}
