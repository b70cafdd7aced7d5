import type { ReactNode } from 'react';
import { ErrorState, ErrorText, Skeleton } from './States.js';
import { useRefetchWhenPeerBack } from './use-peer-back.js';

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
