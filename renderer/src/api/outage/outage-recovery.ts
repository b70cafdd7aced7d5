import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { MutationCache, MutationObserver, Query, QueryClient } from '@tanstack/react-query';
import { bridgeReach } from './bridge-reach.js';
import { ApiError } from '../transport/client.js';
import { queryKeys } from '../transport/query-keys.js';

/** An error the bridge being unreachable caused (outage.ts), as opposed to one of its answers. */
export function isOutageError(error: unknown): boolean {
  return error instanceof ApiError && error.isOutage;
}

type AnyMutationObserver = MutationObserver<unknown, unknown, unknown, unknown>;

/**
 * The mutation observers on screen (each `useMutation` of a mounted component). react-query lists
 * mutations but not who shows them, and only an observer's reset() takes an error off screen;
 * the cache announces each observer as it attaches to a mutation and detaches from it.
 */
function trackMutationObservers(cache: MutationCache): {
  observers: Set<AnyMutationObserver>;
  stop: () => void;
} {
  const observers = new Set<AnyMutationObserver>();
  const stop = cache.subscribe((event) => {
    if (event.type === 'observerAdded') observers.add(event.observer);
    else if (event.type === 'observerRemoved') observers.delete(event.observer);
  });
  return { observers, stop };
}

const failedForOutage = (query: Query) => query.state.status === 'error' && isOutageError(query.state.error);

/**
 * The bridge answers again: every error its absence put on screen goes, and what failed to load is
 * read again. An action's failure (a mutation) is reset to idle; a panel that could not load
 * refetches (the event stream's reconnect refetches everything else, use-live-activity.ts); one
 * not on screen is reset, so it loads afresh rather than showing the old error when opened.
 * Refusals (4xx) and anything else the bridge said stay until dismissed or redone.
 */
function clearOutageErrors(queryClient: QueryClient, observers: ReadonlySet<AnyMutationObserver>): void {
  for (const observer of [...observers]) {
    const result = observer.getCurrentResult();
    if (result.isError && isOutageError(result.error)) observer.reset();
  }
  void queryClient.refetchQueries({ predicate: failedForOutage, type: 'active' });
  void queryClient.resetQueries({ predicate: failedForOutage, type: 'inactive' });
}

/** Clears the outage's errors when the bridge is back, and re-checks /health at once when it goes. */
export function useOutageRecovery(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const tracked = trackMutationObservers(queryClient.getMutationCache());
    const stopRecovery = bridgeReach.onRecovery(() => clearOutageErrors(queryClient, tracked.observers));
    // A call found the bridge gone: the header and banner learn it from /health now, not at the next poll.
    const stopLost = bridgeReach.onLost(
      () => void queryClient.refetchQueries({ queryKey: queryKeys.health, type: 'active' }),
    );
    return () => {
      stopRecovery();
      stopLost();
      tracked.stop();
    };
  }, [queryClient]);
}
