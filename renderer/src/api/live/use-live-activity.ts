import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import { bridgeReach } from '../outage/bridge-reach.js';
import { addPendingKeys, staleKeysFor } from './event-invalidation.js';
import { patchCacheFromEvent } from './event-patches.js';
import { failureStore } from './failure-store.js';
import { liveActivity } from './live-activity.js';
import type { LiveSnapshot } from './live-activity.js';
import { queryKeys } from '../transport/query-keys.js';

/** Live state of GET /events: connection status and the events received since the page loaded. */
export function useLiveActivity(): LiveSnapshot {
  return useSyncExternalStore(liveActivity.subscribe, liveActivity.getSnapshot);
}

const REFRESH_DELAY_MS = 750;

/**
 * Keeps the one /events connection open while there is a key. A failure event is counted and
 * notified (failure-store.ts). Each event makes stale what its
 * row of the invalidation table names (event-invalidation.ts); the first event of a burst
 * starts the timer and every key the burst named is refetched once when it fires. A reconnect
 * refetches everything (events may have been missed); a drop re-checks /health at once.
 */
export function useLiveActivityConnection(key: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (key === null) return;
    let pending: QueryKey[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    liveActivity.start(key, {
      onEvent: (event) => {
        failureStore.receive(event);
        patchCacheFromEvent(queryClient, event);
        pending = addPendingKeys(pending, staleKeysFor(event));
        if (timer) return;
        timer = setTimeout(() => {
          timer = null;
          const keys = pending;
          pending = [];
          for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
        }, REFRESH_DELAY_MS);
      },
      // Whatever happened while the stream was down was not announced: every panel refetches
      // (those on screen now, the others when they are next shown).
      // It is also the bridge answering again: the outage's errors go (outage-recovery.ts).
      onReconnect: () => {
        bridgeReach.answered();
        void queryClient.invalidateQueries();
      },
      // Ask /health at once, so the header and the peers say "unreachable" now, not at the next poll.
      onDrop: () => void queryClient.invalidateQueries({ queryKey: queryKeys.health }),
    });
    return () => {
      if (timer) clearTimeout(timer);
      liveActivity.stop();
    };
  }, [key, queryClient]);
}
