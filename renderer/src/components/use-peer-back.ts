import { useEffect, useRef } from 'react';
import type { PeerFailure } from '../../../shared/api/contract.js';
import { ApiError } from '../api/transport/client.js';
import { useHealthReading } from '../api/transport/health.js';

/** The peer a failure blamed, read reachable again. */
export interface PeerBack {
  peer: PeerFailure;
  /** When the failure came back (ISO). */
  failedAt: string;
  /** The /health reading that found the peer reachable. */
  checkedAt: string;
}

/**
 * The peer an error blames, once /health reads it reachable in an answer that came after the
 * failure (issue #40.2): what failed then is no longer the state of things. Null while the peer is
 * not back, and for errors no peer caused or a peer's refusal of what was sent (not a state).
 * Derived, not stored: should the peer fail again, the error is current again.
 */
export function usePeerBack(error: unknown): PeerBack | null {
  const health = useHealthReading();
  if (!(error instanceof ApiError) || error.peer === undefined || error.peer.cause === 'refused') return null;
  const reading = health.data?.peers?.[error.peer.name];
  if (reading?.state !== 'reachable' || reading.checkedAt === null) return null;
  if (health.dataUpdatedAt <= error.failedAt) return null;
  return { peer: error.peer, failedAt: new Date(error.failedAt).toISOString(), checkedAt: reading.checkedAt };
}

/**
 * A load that failed because of a peer is asked again once /health reads that peer reachable
 * (issue #40.2): an old "The CRM is failing" stayed red after the CRM came back. Once per new
 * reading, so a peer whose probe passes while this call still fails is not asked in a loop.
 */
export function useRefetchWhenPeerBack(query: { error: unknown; refetch: () => Promise<unknown> }): void {
  const back = usePeerBack(query.error)?.checkedAt ?? null;
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (back === null || asked.current === back) return;
    asked.current = back;
    void query.refetch();
  }, [back, query]);
}
