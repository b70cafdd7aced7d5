import { useState } from 'react';
import { columnLabels } from '../components/column-labels.js';
import { topPostMetrics, type TopPostMetric, type TopPostRow } from '../../../shared/api/analytics.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState, Spinner } from '../components/States.js';
import type { CsvColumn } from './csv.js';
import { ExportCsvButton } from './ExportCsvButton.js';
import { PlatformTag } from './PlatformTag.js';
import { formatRate, formatWhole } from './format.js';
import { useCollectionRuns, useTopPosts } from './queries.js';
import { LastCollected } from './LastCollected.js';

const metricLabel: Record<TopPostMetric, string> = {
  engagement: 'Engagement',
  likes: 'Likes',
  shares: 'Shares',
};
const limits = [10, 25, 50] as const;

const csvColumns: CsvColumn<TopPostRow & { rank: number }>[] = [
  { label: 'rank', value: (r) => r.rank },
  { label: 'post_id', value: (r) => r.post_id },
  { label: 'platform', value: (r) => r.platform },
  { label: 'content', value: (r) => r.content },
  { label: 'likes', value: (r) => r.likes },
  { label: 'comments', value: (r) => r.comments },
  { label: 'shares', value: (r) => r.shares },
  { label: 'impressions', value: (r) => r.impressions },
  { label: 'total_engagement', value: (r) => r.total_engagement },
  { label: 'engagement_rate', value: (r) => r.engagement_rate },
  { label: 'collected_at', value: (r) => r.collected_at },
];

/** Posts ranked by their latest snapshot; the metric is part of the URL. */
export function TopPostsPanel({
  metric,
  platform,
  onMetric,
}: {
  metric: TopPostMetric;
  platform: PlatformKey | null;
  onMetric: (metric: TopPostMetric) => void;
}) {
  const [limit, setLimit] = useState<number>(10);
  const posts = useTopPosts(metric, limit, platform);
  const rows = (posts.data?.data ?? []).map((row, index) => ({ ...row, rank: index + 1 }));
  // Posts published at the provider by other means: ranked here, absent from Posts (issue #41.4).
  const elsewhere = new Set(useCollectionRuns().data?.published?.elsewhere ?? []);

  return (
    <Panel
      title={
        <>
          Top posts <span className="panel-subtitle">latest numbers of each post</span>
        </>
      }
      testId="top-posts-panel"
      actions={
        <>
          {posts.isFetching && !posts.isPending ? <Spinner /> : null}
          <LastCollected metric="posts" />
          <div className="chips" role="radiogroup" aria-label="Rank by">
            {topPostMetrics.map((option) => (
              <button
                key={option}
                type="button"
                role="radio"
                aria-checked={option === metric}
                className={`chip ${option === metric ? 'chip-active' : ''}`.trim()}
                onClick={() => onMetric(option)}
              >
                {metricLabel[option]}
              </button>
            ))}
          </div>
          <label className="inline-select">
            <span className="visually-hidden">Posts shown</span>
            <select
              className="input input-small"
              value={limit}
              onChange={(e) => setLimit(Number(e.target.value))}
            >
              {limits.map((n) => (
                <option key={n} value={n}>
                  Top {n}
                </option>
              ))}
            </select>
          </label>
          <ExportCsvButton
            filename={`analytics-top-posts-${metric}${platform ? `-${platform}` : ''}.csv`}
            columns={csvColumns}
            rows={rows}
          />
        </>
      }
    >
      <QueryContent query={posts} what="top posts" skeletonLines={5}>
        {() =>
          rows.length === 0 ? (
            <EmptyState title="No post performance yet">
              Published posts are measured at each collection. Collect now, or publish a post first.
            </EmptyState>
          ) : (
            <div className="table-wrap">
              <table
                ref={columnLabels}
                className="table"
                data-testid="top-posts-table"
                aria-busy={posts.isPlaceholderData}
              >
                <thead>
                  <tr>
                    <th className="num">#</th>
                    <th>Post</th>
                    <th>Platform</th>
                    <th className={`num ${metric === 'likes' ? 'sorted' : ''}`}>Likes</th>
                    <th className="num">Comments</th>
                    <th className={`num ${metric === 'shares' ? 'sorted' : ''}`}>Shares</th>
                    <th className="num">Impressions</th>
                    <th className={`num ${metric === 'engagement' ? 'sorted' : ''}`}>Engagement</th>
                    <th className="num">Rate</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={`${row.postsvc_id}/${row.platform}`}>
                      <td className="num muted">{row.rank}</td>
                      <td className="post-text" title={row.content}>
                        {elsewhere.has(row.postsvc_id) ? (
                          <span
                            className="top-post-elsewhere"
                            title="Published at the provider outside this bridge and the CRM: it is not on Posts."
                          >
                            not on Posts
                          </span>
                        ) : null}
                        {row.content}
                      </td>
                      <td>
                        <PlatformTag platform={row.platform} />
                      </td>
                      <td className="num">{formatWhole(row.likes)}</td>
                      <td className="num">{formatWhole(row.comments)}</td>
                      <td className="num">{formatWhole(row.shares)}</td>
                      <td className="num">{formatWhole(row.impressions)}</td>
                      <td className="num strong">{formatWhole(row.total_engagement)}</td>
                      <td className="num">{formatRate(row.engagement_rate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryContent>
    </Panel>
  );
}
