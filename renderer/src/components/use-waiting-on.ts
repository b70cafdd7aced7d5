import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PeerName } from '../../../shared/api/health.js';
import { useHealthReading } from '../api/transport/health.js';
import { queryKeys } from '../api/transport/query-keys.js';

/** A peer holding a request back, as /health reads it. */
export interface WaitingOn {
  on: PeerName;
  reason: 'throttled';
  until: string | null;
}

/** Shorter waits are a spinner's: not worth a word. */
const SAY_AFTER_MS = 1_000;
/** While a request waits, /health is read this often (it answers from memory). */
const READ_EVERY_MS = 2_000;

/**
 * What a pending request waits on, when the bridge can tell (issue #40.2): a request the posting
 * provider's limiter or an in-request retry holds (up to a few seconds) showed only a spinner.
 * Once it has waited a second, /health is read again, and every 2 s while it waits; a peer the
 * request goes to that reads throttled is what it waits on. Slowness the bridge does not report
 * (a peer slow to answer, the provider's requests-a-minute window) stays a spinner.
 */
export function useWaitingOn(peers: readonly PeerName[], pending: boolean): WaitingOn | null {
  const queryClient = useQueryClient();
  const health = useHealthReading();
  // A reading from before the request waited says nothing of this wait.
  const [since, setSince] = useState<number | null>(null);
  useEffect(() => {
    if (!pending) return;
    let every: ReturnType<typeof setInterval> | undefined;
    const read = () => void queryClient.refetchQueries({ queryKey: queryKeys.health });
    const first = setTimeout(() => {
      setSince(Date.now());
      read();
      every = setInterval(read, READ_EVERY_MS);
    }, SAY_AFTER_MS);
    return () => {
      clearTimeout(first);
      clearInterval(every);
      setSince(null);
    };
  }, [pending, queryClient]);
  if (!pending || since === null || health.dataUpdatedAt < since) return null;
  for (const on of peers) {
    const reading = health.data?.peers?.[on];
    if (reading?.state === 'throttled') return { on, reason: 'throttled', until: reading.until };
  }
  return null;
}
