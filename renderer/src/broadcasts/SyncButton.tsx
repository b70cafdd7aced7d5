import { SyncAction } from '../components/SyncAction.js';
import { useSyncBroadcasts } from './api.js';

/** POST /streamhost/sync and what it did: examined, updated, errors. */
export function SyncButton() {
  return (
    <SyncAction
      sync={useSyncBroadcasts()}
      label="Sync now"
      syncedWord="examined"
      className="bc-sync"
      warnClassName="bc-text-warn"
      testId="sync-result"
      waitsOn={['crm', 'gateway']}
      extra={(data) => (data.errors > 0 ? ' (see Activity)' : '')}
    />
  );
}
