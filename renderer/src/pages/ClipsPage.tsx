import { PlaceholderPage } from '../components/PlaceholderPage.js';

export function ClipsPage() {
  return (
    <PlaceholderPage
      title="Clips"
      description="Short clips suggested from an episode's transcript, ready to cut and post."
      features={[
        { name: 'Transcript', detail: 'Paste plain text, SRT, WebVTT or time-stamped lines.' },
        {
          name: 'Suggestions',
          detail: 'Moments of 15–90 s with start and end, confidence, topic and the signals behind each.',
        },
        { name: 'Fit', detail: 'Which platforms each clip fits by length and aspect ratio.' },
      ]}
      routes={['POST /clips/analyze']}
    />
  );
}
