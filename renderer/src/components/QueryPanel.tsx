import { useEffect, useRef, type ReactNode } from 'react';
import { ApiError } from '../api/transport/client.js';
import { useHealth } from '../api/transport/health.js';
import { ErrorState, ErrorText, Skeleton } from './States.js';

/** The part of a react-query result (plain or infinite) this needs. */
export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => Promise<unknown>;
}

/**
 * The loading / error / data switch every panel needs: skeleton first, then the error with a
 * retry button, else the content. Data already shown stays visible while a refetch fails.
 */
export function QueryContent<T>({
  query,
  what,
  skeletonLines = 3,
  children,
}: {
  query: QueryLike<T>;
  /** Used in "Couldn't load <what>". */
  what: string;
  skeletonLines?: number;
  children: (data: T) => ReactNode;
}) {
  useRefetchWhenPeerBack(query);
  if (query.isPending) return <Skeleton lines={skeletonLines} label={`Loading ${what}`} />;
  if (query.isError && query.data === undefined) {
    return (
      <ErrorState title={`Couldn't load ${what}`} error={query.error} onRetry={() => void query.refetch()} />
    );
  }
  if (query.data === undefined) return null;
  return (
    <>
      {query.isError ? (
        <p className="stale-note" role="status">
          Showing earlier data: the last refresh failed. <ErrorText error={query.error} />{' '}
          <button type="button" className="link-button" onClick={() => void query.refetch()}>
            Retry
          </button>
        </p>
      ) : null}
      {children(query.data)}
    </>
  );
}

/**
 * A load that failed because of a peer is asked again once /health reads that peer reachable
 * (issue #40.2): an old "The CRM is failing" stayed red after the CRM came back. Once per new
 * reading, so a peer whose probe passes while this call still fails is not asked in a loop.
 */
function useRefetchWhenPeerBack<T>(query: QueryLike<T>): void {
  const peer = query.isError && query.error instanceof ApiError ? query.error.peer : undefined;
  const peers = useHealth().data?.peers;
  const reading = peer === undefined ? undefined : peers?.[peer.name];
  const back = peer !== undefined && reading?.state === 'reachable' ? reading.checkedAt : null;
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (back === null || asked.current === back) return;
    asked.current = back;
    void query.refetch();
  }, [back, query]);
}
