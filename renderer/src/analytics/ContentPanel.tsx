import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { columnLabels } from '../components/column-labels.js';
import type { ContentMetricRow } from '../../../shared/api/analytics.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState, Spinner } from '../components/States.js';
import { csvFilename, type CsvColumn } from './csv.js';
import { ExportCsvButton } from './ExportCsvButton.js';
import { PlatformTag } from './PlatformTag.js';
import { platformColor } from '../chart-palette.js';
import { formatCompact, formatDay, formatHours, formatWhole, platformLabel } from './format.js';
import { useContentMetrics } from './queries.js';
import { platformsIn } from './series.js';
import { ContentSource } from './ContentSource.js';

const csvColumns: CsvColumn<ContentMetricRow>[] = [
  { label: 'content_id', value: (r) => r.content_id },
  { label: 'content_name', value: (r) => r.content_name },
  { label: 'platform', value: (r) => r.platform },
  { label: 'platform_content_id', value: (r) => r.platform_content_id },
  { label: 'views', value: (r) => r.views },
  { label: 'watch_hours', value: (r) => r.watch_hours },
  { label: 'likes', value: (r) => r.likes },
  { label: 'comments', value: (r) => r.comments },
  { label: 'shares', value: (r) => r.shares },
  { label: 'collected_at', value: (r) => r.collected_at },
];

const titleOf = (row: ContentMetricRow) => row.content_name ?? row.content_id;
/** "The Studio Hour #2: The Sound of Small Rooms" → "#2: The Sound of Small Rooms" on the axis. */
function shortTitle(title: string): string {
  const short = title.replace(/^.*?(#\d+)/, '$1');
  return short.length > 26 ? `${short.slice(0, 25)}…` : short;
}

/** Views and watch hours of each content item per video platform: the latest numbers in the range. */
export function ContentPanel({ start, end }: { start: string; end: string }) {
  const content = useContentMetrics(start, end);
  const rows = content.data?.data ?? [];
  const platforms = platformsIn(rows);
  const byContent = new Map<string, Record<string, number | string>>();
  for (const row of rows) {
    const point = byContent.get(row.content_id) ?? { content: shortTitle(titleOf(row)), title: titleOf(row) };
    point[row.platform] = row.views;
    byContent.set(row.content_id, point);
  }
  const bars = [...byContent.values()];
  const sorted = [...rows].sort(
    (a, b) => titleOf(a).localeCompare(titleOf(b)) || a.platform.localeCompare(b.platform),
  );

  return (
    <Panel
      title="Content on video platforms"
      testId="content-panel"
      actions={
        <>
          {content.isFetching && !content.isPending ? <Spinner /> : null}
          <ExportCsvButton filename={csvFilename('content', start, end)} columns={csvColumns} rows={sorted} />
        </>
      }
    >
      <ContentSource />
      <QueryContent query={content} what="content metrics" skeletonLines={5}>
        {() =>
          rows.length === 0 ? (
            <EmptyState title="No content metrics in this range">
              Each episode&apos;s views and watch hours on the video platforms appear here once they are
              reported to the bridge, usually by the studio&apos;s automation (n8n) after the episode is
              published. None were reported for these dates.
            </EmptyState>
          ) : (
            <>
              <div
                className="trend-chart"
                style={{ height: 240 }}
                role="img"
                aria-label="Views per content and platform"
              >
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={bars} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
                    <CartesianGrid stroke="#e2e6ed" vertical={false} />
                    <XAxis
                      dataKey="content"
                      tick={{ fontSize: 12, fill: '#6b7585' }}
                      tickLine={false}
                      interval={0}
                    />
                    <YAxis
                      tickFormatter={(v: number) => formatCompact(v)}
                      tick={{ fontSize: 12, fill: '#6b7585' }}
                      tickLine={false}
                      axisLine={false}
                      width={52}
                    />
                    <Tooltip
                      labelFormatter={(_label, payload) => String(payload?.[0]?.payload?.title ?? _label)}
                      formatter={(value, name) => [
                        `${formatWhole(Number(value))} views`,
                        platformLabel(String(name)),
                      ]}
                      contentStyle={{ borderRadius: 8, borderColor: '#e2e6ed', fontSize: 13 }}
                    />
                    <Legend
                      formatter={(name) => platformLabel(String(name))}
                      wrapperStyle={{ fontSize: 13 }}
                    />
                    {platforms.map((platform, index) => (
                      <Bar
                        key={platform}
                        dataKey={platform}
                        stackId="views"
                        fill={platformColor(platform, index)}
                        isAnimationActive={bars.length <= 30}
                        maxBarSize={56}
                      />
                    ))}
                  </BarChart>
                </ResponsiveContainer>
              </div>
              <div className="table-wrap">
                <table ref={columnLabels} className="table" data-testid="content-table">
                  <thead>
                    <tr>
                      <th>Content</th>
                      <th>Platform</th>
                      <th className="num">Views</th>
                      <th className="num">Watch hours</th>
                      <th className="num">Likes</th>
                      <th className="num">Comments</th>
                      <th>As of</th>
                    </tr>
                  </thead>
                  <tbody>
                    {sorted.map((row) => (
                      <tr key={row.id}>
                        <td className="post-text" title={titleOf(row)}>
                          {titleOf(row)}
                        </td>
                        <td>
                          <PlatformTag platform={row.platform} />
                        </td>
                        <td className="num">{formatWhole(row.views)}</td>
                        <td className="num">{formatHours(row.watch_hours)}</td>
                        <td className="num">{formatWhole(row.likes)}</td>
                        <td className="num">{formatWhole(row.comments)}</td>
                        <td className="muted">{formatDay(row.collected_at.slice(0, 10))}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )
        }
      </QueryContent>
    </Panel>
  );
}
