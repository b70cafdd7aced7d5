import { useMemo } from 'react';
import { useNow } from '../format.js';
import { routeOfHash } from '../hash-route.js';
import { useSearchParams } from '../hash-router.js';
import { CollectionPanel } from './CollectionPanel.js';
import { ContentPanel } from './ContentPanel.js';
import { FilterBar } from './FilterBar.js';
import { applyFilterChange, readFilters, type FilterChange } from './filters.js';
import { FollowersPanel, SocialPanels } from './SocialPanels.js';
import { TopPostsPanel } from './TopPostsPanel.js';
import './analytics.css';

/** The search params of the hash route as they are now (`#/analytics?range=1y`). */
function liveSearchParams(): URLSearchParams {
  return new URLSearchParams(routeOfHash(window.location.hash).search);
}

/**
 * Reach and engagement over time per platform, followers, top posts and content metrics, with
 * the date range, platform and ranking metric kept in the URL (`#/analytics?range=1y&...`).
 */
export function AnalyticsView() {
  const [params, setParams] = useSearchParams();
  const now = useNow(60_000);
  const today = new Date(now).toISOString().slice(0, 10);
  const filters = useMemo(() => readFilters(params, today), [params, today]);
  // From the address bar, not this render's params: two quick changes must not undo each other.
  const change = (next: FilterChange) =>
    setParams(applyFilterChange(liveSearchParams(), next), { replace: true });

  return (
    <>
      <FilterBar filters={filters} today={today} onChange={change} />
      <div className="grid grid-2-1 analytics-row">
        <SocialPanels filters={filters} today={today} />
        <CollectionPanel />
      </div>
      <FollowersPanel filters={filters} today={today} />
      <TopPostsPanel
        metric={filters.metric}
        platform={filters.platform}
        onMetric={(metric) => change({ metric })}
      />
      <ContentPanel start={filters.start} end={filters.end} />
    </>
  );
}
