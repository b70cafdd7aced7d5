import { describe, expect, it } from 'vitest';
import { csvFilename, toCsv } from '../../../renderer/src/analytics/csv.js';
import { applyFilterChange, daysBetween, readFilters } from '../../../renderer/src/analytics/filters.js';
import {
  aggregateFollowers,
  aggregateSocial,
  changePoints,
  granularityFor,
  pivot,
  platformsIn,
  weekOf,
} from '../../../renderer/src/analytics/series.js';

const TODAY = '2026-03-12';
const params = (query: string) => new URLSearchParams(query);

describe('analytics page filters in the URL', () => {
  it('defaults to the last 30 days, all platforms, ranked by engagement', () => {
    expect(readFilters(params(''), TODAY)).toEqual({
      range: '30d',
      start: '2026-02-11',
      end: TODAY,
      platform: null,
      metric: 'engagement',
    });
  });

  it('reads presets, a custom range, the platform and the metric', () => {
    expect(readFilters(params('range=1y&platform=photogram&metric=likes'), TODAY)).toMatchObject({
      range: '1y',
      start: '2025-03-13',
      platform: 'photogram',
      metric: 'likes',
    });
    expect(readFilters(params('range=custom&from=2026-01-01&to=2026-01-31'), TODAY)).toMatchObject({
      range: 'custom',
      start: '2026-01-01',
      end: '2026-01-31',
    });
  });

  it('falls back to defaults for anything invalid', () => {
    const filters = readFilters(
      params('range=custom&from=2026-02-30&to=2026-01-31&platform=myspace&metric=views'),
      TODAY,
    );
    expect(filters).toMatchObject({ range: '30d', platform: null, metric: 'engagement' });
    expect(readFilters(params('range=custom&from=2026-02-01&to=2026-01-31'), TODAY).range).toBe('30d');
    expect(readFilters(params('range=5y'), TODAY).range).toBe('30d');
  });

  it('writes only what differs from the defaults and keeps other params', () => {
    const start = params('platform=microblog&other=1');
    expect(applyFilterChange(start, { range: '90d' }).toString()).toBe(
      'platform=microblog&other=1&range=90d',
    );
    expect(applyFilterChange(params('range=90d'), { range: '30d' }).toString()).toBe('');
    expect(applyFilterChange(params('range=1y'), { start: '2026-01-01', end: '2026-01-02' }).toString()).toBe(
      'range=custom&from=2026-01-01&to=2026-01-02',
    );
    expect(applyFilterChange(params('range=custom&from=a&to=b'), { range: '3y' }).toString()).toBe(
      'range=3y',
    );
    expect(applyFilterChange(start, { platform: null }).toString()).toBe('other=1');
    expect(applyFilterChange(params('metric=likes'), { metric: 'engagement' }).toString()).toBe('');
    expect(daysBetween('2026-01-01', '2026-01-31')).toBe(31);
  });
});

describe('chart series', () => {
  it('draws daily up to 120 days, weekly beyond', () => {
    expect(granularityFor('2026-01-01', '2026-04-30')).toBe('day');
    expect(granularityFor('2026-01-01', '2026-05-01')).toBe('week');
    expect(weekOf('2026-03-12')).toBe('2026-03-09'); // Thursday → Monday
    expect(weekOf('2026-03-09')).toBe('2026-03-09');
    expect(weekOf('2026-03-15')).toBe('2026-03-09'); // Sunday belongs to the week before
  });

  it('sums a week of impressions and keeps its last follower count', () => {
    const row = (metric_date: string, platform: string, n: number) => ({
      metric_date,
      platform,
      impressions: n,
      engagement: n / 10,
      reach: n / 2,
      followers: n,
    });
    const rows = [
      row('2026-03-10', 'microblog', 100),
      row('2026-03-09', 'microblog', 50),
      row('2026-03-16', 'microblog', 7),
    ];
    expect(aggregateSocial(rows, 'week')).toEqual([
      {
        metric_date: '2026-03-09',
        platform: 'microblog',
        impressions: 150,
        engagement: 15,
        reach: 75,
        followers: 100,
      },
      {
        metric_date: '2026-03-16',
        platform: 'microblog',
        impressions: 7,
        engagement: 0.7,
        reach: 3.5,
        followers: 7,
      },
    ]);
    expect(aggregateSocial(rows, 'day')).toHaveLength(3);
    expect(
      aggregateFollowers(
        [
          { date: '2026-03-11', platform: 'a', count: 11 },
          { date: '2026-03-10', platform: 'a', count: 10 },
        ],
        'week',
      ),
    ).toEqual([{ date: '2026-03-09', platform: 'a', count: 11 }]);
  });

  it('pivots rows to one point per date with a field per platform, platforms in table order', () => {
    const rows = [
      { date: '2026-03-02', platform: 'socialnet', v: 2 },
      { date: '2026-03-01', platform: 'microblog', v: 1 },
      { date: '2026-03-02', platform: 'microblog', v: 3 },
      { date: '2026-03-01', platform: 'altvideo', v: 9 },
    ];
    expect(
      pivot(
        rows,
        (r) => r.date,
        (r) => r.v,
      ),
    ).toEqual([
      { date: '2026-03-01', microblog: 1, altvideo: 9 },
      { date: '2026-03-02', socialnet: 2, microblog: 3 },
    ]);
    expect(platformsIn(rows)).toEqual(['microblog', 'socialnet', 'altvideo']);
  });
});

describe('CSV export', () => {
  it('quotes what needs quoting and defuses spreadsheet formulas', () => {
    const csv = toCsv(
      [
        { label: 'content', value: (r: { text: string; n: number | null }) => r.text },
        { label: 'n', value: (r) => r.n },
      ],
      [
        { text: 'plain', n: 1 },
        { text: 'a "quoted", text\nwith a line', n: null },
        { text: '=HYPERLINK("x")', n: -2 },
      ],
    );
    expect(csv).toBe(
      'content,n\r\nplain,1\r\n"a ""quoted"", text\nwith a line",\r\n"\'=HYPERLINK(""x"")",-2\r\n',
    );
    expect(csvFilename('social', '2026-01-01', '2026-01-31')).toBe(
      'analytics-social-2026-01-01_2026-01-31.csv',
    );
  });
});

describe('followers as change since the range starts', () => {
  it("subtracts each platform's first count and keeps the count beside it", () => {
    const rows = [
      { date: '2026-03-02', platform: 'microblog', count: 120_300 },
      { date: '2026-03-01', platform: 'microblog', count: 120_000 },
      { date: '2026-03-01', platform: 'pinboard', count: 3_000 },
      { date: '2026-03-02', platform: 'pinboard', count: 2_990 },
    ];
    expect(changePoints(rows)).toEqual([
      { date: '2026-03-01', microblog: 0, 'microblog:count': 120_000, pinboard: 0, 'pinboard:count': 3_000 },
      {
        date: '2026-03-02',
        microblog: 300,
        'microblog:count': 120_300,
        pinboard: -10,
        'pinboard:count': 2_990,
      },
    ]);
  });
});
