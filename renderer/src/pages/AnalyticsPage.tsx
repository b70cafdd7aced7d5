import { PlaceholderPage } from '../components/PlaceholderPage.js';

export function AnalyticsPage() {
  return (
    <PlaceholderPage
      title="Analytics"
      description="Reach and engagement over time, per platform, collected every few hours."
      features={[
        {
          name: 'Social metrics',
          detail: 'Impressions, engagement and reach per platform and day, as charts.',
        },
        { name: 'Followers', detail: 'Follower counts per platform over a chosen date range.' },
        { name: 'Top posts', detail: 'Posts ranked by their latest engagement rate.' },
        { name: 'Content', detail: 'Views and watch hours of episodes and videos per platform.' },
        { name: 'Collect now', detail: 'Start a collection and follow its progress live.' },
      ]}
      routes={[
        'GET /analytics/social-metrics',
        'GET /analytics/followers',
        'GET /analytics/top-posts',
        'GET /analytics/content-metrics',
        'POST /analytics/collect',
      ]}
    />
  );
}
