import { ApiError, errorMessage } from '../api/client.js';
import { Spinner } from '../components/States.js';
import { useSyncBroadcasts } from './api.js';

/** POST /streamhost/sync and what it did: examined, updated, errors. */
export function SyncButton() {
  const sync = useSyncBroadcasts();
  return (
    <div className="bc-sync">
      <button type="button" className="button" disabled={sync.isPending} onClick={() => sync.mutate()}>
        {sync.isPending ? <Spinner label="Syncing…" /> : 'Sync now'}
      </button>
      {sync.isSuccess ? (
        <span
          className={`small ${sync.data.errors > 0 ? 'bc-text-warn' : 'muted'}`}
          role="status"
          data-testid="sync-result"
        >
          {sync.data.synced} examined, {sync.data.updated} updated, {sync.data.errors} error
          {sync.data.errors === 1 ? '' : 's'}
          {sync.data.errors > 0 ? ' (see Activity)' : ''}
        </span>
      ) : null}
      {sync.isError ? (
        <span className="field-error" role="alert">
          Sync failed: {errorMessage(sync.error)}
          {sync.error instanceof ApiError && sync.error.code ? ` (${sync.error.code})` : ''}
        </span>
      ) : null}
    </div>
  );
}
