import type { LastCollected as LastCollectedTimes } from '../../../shared/api/analytics.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';
import { useCollectionRuns } from './queries.js';

/** When a metric was last collected (DESIGN §6.9): beside each panel's title, from GET /analytics/runs. */
export function LastCollected({ metric }: { metric: keyof LastCollectedTimes }) {
  const runs = useCollectionRuns();
  const now = useNow(60_000);
  if (!runs.data) return null;
  const at = runs.data.lastCollected[metric];
  return (
    <span
      className="muted small"
      data-testid={`last-collected-${metric}`}
      title={at ? formatDateTime(at) : undefined}
    >
      {at ? `collected ${formatRelative(at, now)}` : 'never collected'}
    </span>
  );
}
