import { PlaceholderPage } from '../components/PlaceholderPage.js';

export function GuestsPage() {
  return (
    <PlaceholderPage
      title="Guests"
      description="The guest pipeline from outreach to published, and how well it converts."
      features={[
        {
          name: 'Pipeline',
          detail: 'Guests per stage: Outreach, Responded, Confirmed, Scheduled, Recorded, Published.',
        },
        {
          name: 'Ratios',
          detail:
            'Response (>30%), confirmation (>70%) and show rate (>95%), time to publish (<7 days) against targets.',
        },
        {
          name: 'Workflows',
          detail: 'Which automation workflow fired for which stage change, and its outcome.',
        },
      ]}
      routes={['POST /webhooks/guest-created', 'POST /webhooks/guest-updated']}
    />
  );
}
