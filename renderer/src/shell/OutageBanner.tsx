import { useQueryClient } from '@tanstack/react-query';
import { useBridgeReach } from '../api/outage/bridge-reach.js';
import { liveActivity } from '../api/live/live-activity.js';
import { queryKeys } from '../api/transport/query-keys.js';
import { formatClock } from '../format.js';

/**
 * Above every page while the bridge does not answer (api/bridge-reach.ts): what is going on, and
 * that the errors it causes go by themselves (api/outage/outage-recovery.ts). Gone once it answers.
 */
export function OutageBanner() {
  const reach = useBridgeReach();
  const queryClient = useQueryClient();
  if (reach.reachable) return null;
  const tryNow = () => {
    liveActivity.retryNow();
    void queryClient.refetchQueries({ queryKey: queryKeys.health });
  };
  return (
    <div className="banner banner-bad outage-banner" role="status" data-testid="outage-banner">
      <div>
        <strong>Bridge unreachable — retrying…</strong>
        <span className="banner-detail">
          Since {formatClock(new Date(reach.since).toISOString())}. Pages show what it last reported; errors
          this causes clear by themselves when it answers again.
        </span>
      </div>
      <button type="button" className="button button-small" onClick={tryNow}>
        Try now
      </button>
    </div>
  );
}
