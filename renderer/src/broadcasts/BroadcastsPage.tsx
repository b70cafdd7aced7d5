import { BroadcastList } from './BroadcastList.js';
import { CreateBroadcastForm } from './CreateBroadcastForm.js';
import { PublishingPanel } from './PublishingPanel.js';
import { SyncButton } from './SyncButton.js';
import { PageHeader } from '../components/PageHeader.js';
import './broadcasts.css';

export function BroadcastsPage() {
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
