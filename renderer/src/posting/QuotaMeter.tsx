import type { QuotaSnapshot } from '../../../shared/api/posting.js';
import type { Tone } from '../components/StatusPill.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';

/** Posts left today under the plan's quota (counted by the bridge from its ledger, UTC day). */
export function QuotaMeter({ quota }: { quota: QuotaSnapshot }) {
  const now = useNow(60_000);
  const share = quota.limit > 0 ? Math.min(1, quota.used / quota.limit) : 1;
  const tone: Tone = quota.left === 0 ? 'bad' : share >= 0.8 ? 'warn' : 'ok';
  return (
    <div data-testid="post-quota">
      <p className="quota-left">
        <span className={`number-value number-${tone}`}>{quota.left}</span> of {quota.limit} posts left today
      </p>
      <div
        className={`meter meter-${tone}`}
        role="meter"
        aria-label="Posts used today"
        aria-valuemin={0}
        aria-valuemax={quota.limit}
        aria-valuenow={quota.used}
      >
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <p className="muted small">
        {quota.used} used · {quota.plan} plan · resets{' '}
        <span title={formatDateTime(quota.resetsAt)}>{formatRelative(quota.resetsAt, now)}</span> (00:00 UTC)
      </p>
      <p className="muted small" data-testid="quota-cancelled-note">
        Cancelled posts still count: the provider counted each one when it was created.
      </p>
    </div>
  );
}
