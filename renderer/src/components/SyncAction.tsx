import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorText, Spinner } from './States.js';

export interface SyncCounts {
  synced: number;
  updated: number;
  errors: number;
}

/**
 * A "sync now" button and what the sync did (counts, or the error with its code). Shared by the
 * areas that sync CRM records with a peer (posts with the provider, broadcasts with the host).
 */
export function SyncAction<T extends SyncCounts>(props: {
  sync: UseMutationResult<T, Error, void>;
  label: string;
  /** e.g. "examined" or "matched": what `synced` counts. */
  syncedWord: string;
  className: string;
  warnClassName: string;
  testId: string;
  extra?: (data: T) => ReactNode;
}) {
  const { sync } = props;
  return (
    <div className={props.className}>
      <button type="button" className="button" disabled={sync.isPending} onClick={() => sync.mutate()}>
        {sync.isPending ? <Spinner label="Syncing…" /> : props.label}
      </button>
      {sync.isSuccess ? (
        <span
          className={`small ${sync.data.errors > 0 ? props.warnClassName : 'muted'}`}
          role="status"
          data-testid={props.testId}
        >
          {sync.data.synced} {props.syncedWord}, {sync.data.updated} updated, {sync.data.errors} error
          {sync.data.errors === 1 ? '' : 's'}
          {props.extra?.(sync.data)}
        </span>
      ) : null}
      {sync.isError ? (
        <span className="field-error" role="alert">
          Sync failed: <ErrorText error={sync.error} />
        </span>
      ) : null}
    </div>
  );
}
