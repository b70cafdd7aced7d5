import { SyncAction } from '../components/SyncAction.js';
import { useSyncPosts } from './api.js';

/** POST /postsvc/sync: SocialPost statuses brought in line with the provider, and what it did. */
export function SyncButton() {
  return (
    <SyncAction
      sync={useSyncPosts()}
      label="Sync with provider"
      syncedWord="matched"
      className="posts-sync"
      warnClassName="posts-text-warn"
      testId="posts-sync-result"
      waitsOn={['postsvc', 'crm']}
      extra={(data) =>
        data.failures.length > 0 ? ` (${data.failures.map((f) => f.socialPostId).join(', ')})` : ''
      }
    />
  );
}
