import { useState } from 'react';
import { platformKeys } from '../../../shared/platforms.js';
import { daysBetween, rangePresets, type AnalyticsFilters, type FilterChange } from './filters.js';
import { formatDay, platformLabel } from './format.js';

/** Date range (presets or custom days) and platform; every change goes to the URL. */
export function FilterBar({
  filters,
  today,
  onChange,
}: {
  filters: AnalyticsFilters;
  today: string;
  onChange: (change: FilterChange) => void;
}) {
  // Days typed in an order that makes no range are kept (and explained) here, not applied:
  // the charts keep the last valid range until "From" is on or before "To" again.
  const [outOfOrder, setOutOfOrder] = useState<{ start: string; end: string } | null>(null);
  const shown = outOfOrder ?? { start: filters.start, end: filters.end };
  const setDay = (which: 'start' | 'end', value: string) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return;
    const next = { ...shown, [which]: value };
    if (next.start <= next.end) {
      setOutOfOrder(null);
      onChange(next);
    } else {
      setOutOfOrder(next);
    }
  };
  return (
    <div className="analytics-toolbar" role="search" aria-label="Analytics filters">
      <div className="filter">
        <span className="field-label">Range</span>
        <div className="chips" role="radiogroup" aria-label="Range">
          {rangePresets.map((preset) => (
            <button
              key={preset.key}
              type="button"
              role="radio"
              aria-checked={filters.range === preset.key}
              className={`chip ${filters.range === preset.key ? 'chip-active' : ''}`.trim()}
              onClick={() => {
                setOutOfOrder(null);
                onChange({ range: preset.key });
              }}
            >
              {preset.label}
            </button>
          ))}
          {filters.range === 'custom' ? (
            <span className="chip chip-active" aria-checked="true" role="radio">
              Custom · {daysBetween(filters.start, filters.end)} days
            </span>
          ) : null}
        </div>
      </div>
      <label className="filter filter-date">
        <span className="field-label">From</span>
        <input
          className="input"
          type="date"
          value={shown.start}
          max={today}
          aria-invalid={outOfOrder !== null}
          aria-describedby={outOfOrder ? 'analytics-date-order' : undefined}
          onChange={(event) => setDay('start', event.target.value)}
        />
      </label>
      <label className="filter filter-date">
        <span className="field-label">To</span>
        <input
          className="input"
          type="date"
          value={shown.end}
          max={today}
          aria-invalid={outOfOrder !== null}
          aria-describedby={outOfOrder ? 'analytics-date-order' : undefined}
          onChange={(event) => setDay('end', event.target.value)}
        />
      </label>
      <label className="filter">
        <span className="field-label">Platform</span>
        <select
          className="input"
          aria-label="Platform"
          value={filters.platform ?? ''}
          onChange={(event) =>
            onChange({ platform: platformKeys.find((key) => key === event.target.value) ?? null })
          }
        >
          <option value="">All platforms</option>
          {platformKeys.map((key) => (
            <option key={key} value={key}>
              {platformLabel(key)}
            </option>
          ))}
        </select>
      </label>
      {outOfOrder ? (
        <p id="analytics-date-order" className="field-error analytics-date-order" role="alert">
          “To” ({formatDay(outOfOrder.end)}) is before “From” ({formatDay(outOfOrder.start)}): pick a later
          “To” or an earlier “From”. The charts still show {formatDay(filters.start)} –{' '}
          {formatDay(filters.end)}.
        </p>
      ) : null}
    </div>
  );
}
