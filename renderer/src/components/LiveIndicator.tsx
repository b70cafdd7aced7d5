import { liveActivity } from '../api/live/live-activity.js';
import { useLiveActivity } from '../api/live/use-live-activity.js';
import { useNow } from '../format.js';

/** Connection state of the live event stream, with the reconnect countdown (not when `compact`). */
export function LiveIndicator({ compact = false }: { compact?: boolean }) {
  const live = useLiveActivity();
  const now = useNow(1_000);
  if (live.status === 'open') {
    return (
      <span className="live live-open" data-testid="live-status" title="Receiving live events from /events">
        <span className="live-dot" aria-hidden="true" /> Live
      </span>
    );
  }
  if (live.status === 'reconnecting') {
    const seconds = live.retryAt === null ? 0 : Math.max(0, Math.ceil((live.retryAt - now) / 1000));
    return (
      <span className="live live-down" data-testid="live-status">
        <span className="live-dot" aria-hidden="true" />
        {live.retryAt === null || seconds === 0
          ? 'Reconnecting…'
          : compact
            ? 'Offline, retrying'
            : `Offline · retry in ${seconds} s`}
        {!compact && live.retryAt !== null && seconds > 0 ? (
          <button type="button" className="live-retry" onClick={() => liveActivity.retryNow()}>
            Now
          </button>
        ) : null}
      </span>
    );
  }
  return (
    <span className="live live-connecting" data-testid="live-status">
      <span className="live-dot" aria-hidden="true" /> Connecting…
    </span>
  );
}
