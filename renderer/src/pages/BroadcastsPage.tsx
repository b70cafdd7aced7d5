import { useLiveBroadcastRefresh } from '../broadcasts/api.js';
import { BroadcastList } from '../broadcasts/BroadcastList.js';
import { CreateBroadcastForm } from '../broadcasts/CreateBroadcastForm.js';
import { PublishingPanel } from '../broadcasts/PublishingPanel.js';
import { SyncButton } from '../broadcasts/SyncButton.js';
import { PageHeader } from '../components/PageHeader.js';
import '../broadcasts/broadcasts.css';

export function BroadcastsPage() {
  useLiveBroadcastRefresh();
  return (
    <>
      <PageHeader
        title="Broadcasts"
        description="Live broadcasts at the streaming host, created and watched through the publishing gateway, and platform publishing per production."
        actions={<SyncButton />}
      />
      <div className="grid grid-2-1">
        <BroadcastList />
        <CreateBroadcastForm />
      </div>
      <PublishingPanel />
    </>
  );
}
