import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { liveActivity } from './live-activity.js';
import type { LiveSnapshot } from './live-activity.js';
import { queryKeys } from './query-client.js';

/** Live state of GET /events: connection status and the events received since the page loaded. */
export function useLiveActivity(): LiveSnapshot {
  return useSyncExternalStore(liveActivity.subscribe, liveActivity.getSnapshot);
}

const REFRESH_DELAY_MS = 750;

/**
 * Keeps the one /events connection open while there is a key. Each event refreshes the
 * numbers it can change (job queue, health) once per burst; a reconnect refetches the lists.
 */
export function useLiveActivityConnection(key: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (key === null) return;
    let pending: ReturnType<typeof setTimeout> | null = null;
    liveActivity.start(key, {
      onEvent: () => {
        if (pending) return;
        pending = setTimeout(() => {
          pending = null;
          void queryClient.invalidateQueries({ queryKey: queryKeys.jobs });
          void queryClient.invalidateQueries({ queryKey: queryKeys.health });
        }, REFRESH_DELAY_MS);
      },
      onReconnect: () => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.activity });
        void queryClient.invalidateQueries({ queryKey: queryKeys.jobs });
      },
    });
    return () => {
      if (pending) clearTimeout(pending);
      liveActivity.stop();
    };
  }, [key, queryClient]);
}
