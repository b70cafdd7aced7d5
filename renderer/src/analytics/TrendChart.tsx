import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { daysBetween } from './filters.js';
import type { ChartPoint, Granularity } from './series.js';
import { platformColor } from '../chart-palette.js';
import {
  formatAxisDay,
  formatCompact,
  formatDay,
  formatSignedCompact,
  formatWhole,
  platformLabel,
} from './format.js';

/** Beyond this many points a line is drawn without dots and without animation. */
const DOTS_UP_TO = 45;
const ANIMATE_UP_TO = 400;

/**
 * One line per platform over time. Long series (three years are downsampled to weeks before
 * they get here) draw no dots and skip the entry animation, so the page stays smooth.
 */
export function TrendChart({
  points,
  platforms,
  granularity,
  label,
  testId,
  height = 260,
  describe = (value) => formatWhole(value),
  change = false,
}: {
  points: readonly ChartPoint[];
  platforms: readonly string[];
  granularity: Granularity;
  label: string;
  testId?: string;
  height?: number;
  /** The tooltip's words for one platform's value at one point. */
  describe?: (value: number, point: ChartPoint, platform: string) => string;
  /** Values are changes since the range's start: signed ticks and a line at zero. */
  change?: boolean;
}) {
  // Month-and-year labels only when the points really span many months.
  const first = points[0]?.date;
  const last = points.at(-1)?.date;
  const long = first !== undefined && last !== undefined && daysBetween(first, last) > 200;
  const dots = points.length <= DOTS_UP_TO;
  const animate = points.length * platforms.length <= ANIMATE_UP_TO;
  return (
    <div className="trend-chart" style={{ height }} data-testid={testId} role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={[...points]} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#e2e6ed" vertical={false} />
          <XAxis
            dataKey="date"
            tickFormatter={(day: string) => formatAxisDay(day, long)}
            tick={{ fontSize: 12, fill: '#6b7585' }}
            tickLine={false}
            axisLine={{ stroke: '#cdd3dd' }}
            minTickGap={24}
          />
          <YAxis
            // Changes start at 0 on the first day, so a fitted axis always shows the zero line.
            domain={change ? ['auto', 'auto'] : [0, 'auto']}
            tickFormatter={(value: number) => (change ? formatSignedCompact(value) : formatCompact(value))}
            tick={{ fontSize: 12, fill: '#6b7585' }}
            tickLine={false}
            axisLine={false}
            width={52}
          />
          <Tooltip
            labelFormatter={(day) =>
              granularity === 'week' ? `Week of ${formatDay(String(day))}` : formatDay(String(day))
            }
            formatter={(value, name, item) => [
              describe(Number(value), item.payload as ChartPoint, String(name)),
              platformLabel(String(name)),
            ]}
            contentStyle={{ borderRadius: 8, borderColor: '#e2e6ed', fontSize: 13 }}
          />
          <Legend
            formatter={(name) => platformLabel(String(name))}
            iconType="plainline"
            wrapperStyle={{ fontSize: 13 }}
          />
          {change ? <ReferenceLine y={0} stroke="#9aa3b2" /> : null}
          {platforms.map((platform, index) => (
            <Line
              key={platform}
              type="monotone"
              dataKey={platform}
              name={platform}
              stroke={platformColor(platform, index)}
              strokeWidth={2}
              dot={dots ? { r: 2.5 } : false}
              activeDot={{ r: 4 }}
              isAnimationActive={animate}
              connectNulls
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
