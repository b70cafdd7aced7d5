import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { PeerName } from '../../../shared/api/health.js';
import { waitingLabel, waitingReason } from '../api/words.js';
import { ActionError, Spinner } from './States.js';
import { useWaitingOn } from './use-waiting-on.js';

const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export interface SyncCounts {
  synced: number;
  updated: number;
  errors: number;
}

/**
 * A "sync now" button and what the sync did (counts, or the error in words, quiet once the peer
 * that caused it is back), and what it waits on while a peer holds it back. Shared by the areas
 * that sync CRM records with a peer (posts with the provider, broadcasts with the host).
 */
export function SyncAction<T extends SyncCounts>(props: {
  sync: UseMutationResult<T, Error, void>;
  label: string;
  /** e.g. "examined" or "matched": what `synced` counts. */
  syncedWord: string;
  className: string;
  warnClassName: string;
  testId: string;
  /** The peers the sync asks, whose holding it back is said while it waits. */
  waitsOn: readonly PeerName[];
  extra?: (data: T) => ReactNode;
}) {
  const { sync } = props;
  const waiting = useWaitingOn(props.waitsOn, sync.isPending);
  return (
    <div className={props.className}>
      <button type="button" className="button" disabled={sync.isPending} onClick={() => sync.mutate()}>
        {sync.isPending ? <Spinner label={waiting ? waitingLabel(waiting.on) : 'Syncing…'} /> : props.label}
      </button>
      {waiting ? (
        <span className="small muted" role="status" data-testid={`${props.testId}-waiting`}>
          {sentence(waitingReason(waiting))}; the sync goes on by itself.
        </span>
      ) : null}
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
        <ActionError lead="Sync failed" error={sync.error} testId={`${props.testId}-error`} />
      ) : null}
    </div>
  );
}
