import { PlaceholderPage } from '../components/PlaceholderPage.js';

export function BroadcastsPage() {
  return (
    <PlaceholderPage
      title="Broadcasts"
      description="Live broadcasts at the streaming host, created and watched through the publishing gateway."
      features={[
        {
          name: 'Upcoming and live',
          detail: 'Broadcasts with status, viewer count, start time and stream health.',
        },
        {
          name: 'Create',
          detail: 'Name, description, scheduled time and channel; embed and dashboard links.',
        },
        { name: 'Sync', detail: 'Bring CRM broadcast records in line with what the host reports.' },
        {
          name: 'Publishing',
          detail: 'Platform uploads per production, including platforms waiting on another.',
        },
      ]}
      routes={[
        'POST /streamhost/create-broadcast',
        'POST /streamhost/delete-broadcast',
        'GET /streamhost/status/:broadcastId',
        'POST /streamhost/sync',
      ]}
    />
  );
}
