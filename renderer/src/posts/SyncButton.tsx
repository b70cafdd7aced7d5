import { ApiError, errorMessage } from '../api/client.js';
import { Spinner } from '../components/States.js';
import { useSyncPosts } from './api.js';

/** POST /postsvc/sync: SocialPost statuses brought in line with the provider, and what it did. */
export function SyncButton() {
  const sync = useSyncPosts();
  return (
    <div className="posts-sync">
      <button type="button" className="button" disabled={sync.isPending} onClick={() => sync.mutate()}>
        {sync.isPending ? <Spinner label="Syncing…" /> : 'Sync with provider'}
      </button>
      {sync.isSuccess ? (
        <span
          className={`small ${sync.data.errors > 0 ? 'posts-text-warn' : 'muted'}`}
          role="status"
          data-testid="posts-sync-result"
        >
          {sync.data.synced} matched, {sync.data.updated} updated, {sync.data.errors} error
          {sync.data.errors === 1 ? '' : 's'}
          {sync.data.failures.length > 0
            ? ` (${sync.data.failures.map((f) => f.socialPostId).join(', ')})`
            : ''}
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
