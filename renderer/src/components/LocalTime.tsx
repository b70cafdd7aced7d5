import { formatDateTime, formatLocal, formatRelative, formatUtc } from '../format.js';

/**
 * An instant as the operator reads it: local time, and UTC beside it where the time is shared
 * with other people or systems (a post's or broadcast's time, a failure, a collection run).
 * `relativeTo` (epoch ms) adds "in 2 h" / "5 min ago". The full local date is the tooltip.
 */
export function LocalTime({
  iso,
  utc = true,
  relativeTo,
  className,
  testId,
}: {
  iso: string;
  utc?: boolean;
  relativeTo?: number;
  className?: string;
  testId?: string;
}) {
  return (
    <time
      className={`local-time ${className ?? ''}`.trim()}
      dateTime={iso}
      title={`${formatDateTime(iso)} · ${formatUtc(iso)}`}
      data-testid={testId}
    >
      <span className="local-time-local" data-testid="time-local">
        {formatLocal(iso)}
      </span>
      {relativeTo !== undefined ? (
        <span className="local-time-relative muted small"> · {formatRelative(iso, relativeTo)}</span>
      ) : null}
      {utc ? (
        <span className="local-time-utc muted small mono" data-testid="time-utc">
          {formatUtc(iso)}
        </span>
      ) : null}
    </time>
  );
}
