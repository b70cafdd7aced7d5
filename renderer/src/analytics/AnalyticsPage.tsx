import { lazy, Suspense } from 'react';
import { PageHeader } from '../components/PageHeader.js';
import { Skeleton } from '../components/States.js';

// The charts (recharts) load with this page only, not with the rest of the dashboard.
const AnalyticsView = lazy(() =>
  import('./AnalyticsView.js').then((module) => ({ default: module.AnalyticsView })),
);

export function AnalyticsPage() {
  return (
    <>
      <PageHeader
        title="Analytics"
        description="Reach and engagement per platform, followers, the best posts and how episodes do on video platforms."
      />
      <Suspense fallback={<Skeleton lines={8} label="Loading analytics" />}>
        <AnalyticsView />
      </Suspense>
    </>
  );
}
