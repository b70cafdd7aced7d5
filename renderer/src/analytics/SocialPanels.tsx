import type { SocialMetricRow } from '../../../shared/api/analytics.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState, Spinner } from '../components/States.js';
import { csvFilename, type CsvColumn } from './csv.js';
import { ExportCsvButton } from './ExportCsvButton.js';
import type { AnalyticsFilters } from './filters.js';
import { formatCompact, formatDay, formatRate, formatSignedWhole, formatWhole } from './format.js';
import { useFollowers, useSocialMetrics } from './queries.js';
import {
  aggregateFollowers,
  aggregateSocial,
  changePoints,
  countKey,
  granularityFor,
  pivot,
  platformsIn,
} from './series.js';
import { TrendChart } from './TrendChart.js';
import { LastCollected } from './LastCollected.js';

type SocialPoint = Pick<
  SocialMetricRow,
  'metric_date' | 'platform' | 'impressions' | 'engagement' | 'reach' | 'followers'
>;
const socialCsv: CsvColumn<SocialPoint>[] = [
  { label: 'period_start', value: (r) => r.metric_date },
  { label: 'platform', value: (r) => r.platform },
  { label: 'impressions', value: (r) => r.impressions },
  { label: 'engagement', value: (r) => r.engagement },
  { label: 'reach', value: (r) => r.reach },
  { label: 'followers', value: (r) => r.followers },
];

function rangeNote(filters: AnalyticsFilters, weekly: boolean): string {
  return `${formatDay(filters.start)} – ${formatDay(filters.end)}${weekly ? ' · weekly' : ' · daily'}`;
}

/** Impressions and engagement over time, one line per platform, with the range's totals. */
export function SocialPanels({ filters, today }: { filters: AnalyticsFilters; today: string }) {
  const social = useSocialMetrics(filters.start, filters.end, filters.platform);
  const granularity = granularityFor(filters.start, filters.end);
  const rows = aggregateSocial(social.data?.data ?? [], granularity).sort(
    (a, b) => a.metric_date.localeCompare(b.metric_date) || a.platform.localeCompare(b.platform),
  );
  const platforms = platformsIn(rows);

  return (
    <Panel
      title="Impressions and engagement"
      testId="social-panel"
      actions={
        <>
          {social.isFetching && !social.isPending ? <Spinner /> : null}
          <LastCollected metric="social" />
          <span className="muted small">{rangeNote(filters, granularity === 'week')}</span>
          <ExportCsvButton
            filename={csvFilename(
              `social${filters.platform ? `-${filters.platform}` : ''}`,
              filters.start,
              filters.end,
            )}
            columns={socialCsv}
            rows={rows}
          />
        </>
      }
    >
      <QueryContent query={social} what="social metrics" skeletonLines={8}>
        {(answer) =>
          answer.data.length === 0 ? (
            <EmptyState title="No social metrics for these dates">
              Pick a longer range, or collect now to read today&apos;s numbers from the provider.
            </EmptyState>
          ) : (
            <>
              <Totals rows={answer.data} />
              <h3 className="chart-title">Impressions</h3>
              <TrendChart
                points={pivot(
                  rows,
                  (r) => r.metric_date,
                  (r) => r.impressions,
                )}
                platforms={platforms}
                granularity={granularity}
                label="Impressions per platform over time"
                testId="impressions-chart"
                height={230}
              />
              <h3 className="chart-title">Engagement</h3>
              <TrendChart
                points={pivot(
                  rows,
                  (r) => r.metric_date,
                  (r) => r.engagement,
                )}
                platforms={platforms}
                granularity={granularity}
                label="Engagement per platform over time"
                testId="engagement-chart"
                height={230}
              />
              {filters.end === today ? (
                <p className="muted small analytics-note">
                  The last {granularity === 'week' ? 'week' : 'day'} counts today so far.
                </p>
              ) : null}
            </>
          )
        }
      </QueryContent>
    </Panel>
  );
}

function Totals({ rows }: { rows: readonly SocialMetricRow[] }) {
  const impressions = rows.reduce((sum, r) => sum + r.impressions, 0);
  const engagement = rows.reduce((sum, r) => sum + r.engagement, 0);
  // Rows are newest first: the first row of each platform holds its latest follower count.
  const latest = new Map<string, number>();
  for (const row of rows) if (!latest.has(row.platform)) latest.set(row.platform, row.followers);
  const followers = [...latest.values()].reduce((sum, n) => sum + n, 0);
  const numbers = [
    { label: 'Impressions', value: formatCompact(impressions), title: formatWhole(impressions) },
    { label: 'Engagement', value: formatCompact(engagement), title: formatWhole(engagement) },
    {
      label: 'Engagement rate',
      value: formatRate(impressions === 0 ? 0 : engagement / impressions),
      title: '',
    },
    { label: 'Followers now', value: formatCompact(followers), title: formatWhole(followers) },
  ];
  return (
    <div className="numbers analytics-totals" data-testid="social-totals">
      {numbers.map((n) => (
        <div key={n.label} className="number" title={n.title}>
          <span className="number-value">{n.value}</span>
          <span className="number-label">{n.label}</span>
        </div>
      ))}
    </div>
  );
}

const followersCsv: CsvColumn<{ date: string; platform: string; count: number }>[] = [
  { label: 'date', value: (r) => r.date },
  { label: 'platform', value: (r) => r.platform },
  { label: 'followers', value: (r) => r.count },
];

/** Followers gained or lost since the range's first day, one line per platform (the counts in the tooltip). */
export function FollowersPanel({ filters, today }: { filters: AnalyticsFilters; today: string }) {
  const followers = useFollowers(filters.start, filters.end, today, filters.platform);
  const granularity = granularityFor(filters.start, filters.end);
  const rows = aggregateFollowers(followers.data ?? [], granularity).sort(
    (a, b) => a.date.localeCompare(b.date) || a.platform.localeCompare(b.platform),
  );
  return (
    <Panel
      title="Followers"
      testId="followers-panel"
      actions={
        <>
          {followers.isFetching && !followers.isPending ? <Spinner /> : null}
          <LastCollected metric="followers" />
          <span className="muted small">{rangeNote(filters, granularity === 'week')}</span>
          <ExportCsvButton
            filename={csvFilename(
              `followers${filters.platform ? `-${filters.platform}` : ''}`,
              filters.start,
              filters.end,
            )}
            columns={followersCsv}
            rows={rows}
          />
        </>
      }
    >
      <QueryContent query={followers} what="follower counts" skeletonLines={6}>
        {() =>
          rows.length === 0 ? (
            <EmptyState title="No follower counts for these dates">
              Follower counts are recorded once a day by each collection.
            </EmptyState>
          ) : (
            <>
              <h3 className="chart-title">Change since {formatDay(rows[0]?.date ?? filters.start)}</h3>
              <TrendChart
                points={changePoints(rows)}
                platforms={platformsIn(rows)}
                granularity={granularity}
                label="Followers gained or lost per platform since the start of the range"
                testId="followers-chart"
                height={260}
                change
                describe={(value, point, platform) => {
                  const count = point[countKey(platform)];
                  return typeof count === 'number'
                    ? `${formatSignedWhole(value)} (${formatWhole(count)} followers)`
                    : formatSignedWhole(value);
                }}
              />
            </>
          )
        }
      </QueryContent>
    </Panel>
  );
}
