import { useLiveBroadcasts } from '../broadcasts/api.js';
import { formatDateTime, useNow } from '../format.js';
import { useRecorderStatus } from '../recorder/api.js';
import { onAirNotRecording } from '../recorder/on-air-recording.js';
import { position } from '../recorder/take-words.js';
import './rec-indicator.css';

/**
 * The header's REC sign with the take's running time while OBS records (issue #41.2), or the
 * warning "On air but not recording" while a broadcast is live and OBS, connected, records
 * nothing (issue #41.3). The recorder status follows `recorder.*` events on /events.
 */
export function RecIndicator() {
  const status = useRecorderStatus().data;
  const live = useLiveBroadcasts();
  if (status?.recording.active && status.recording.since) {
    return (
      <RecRunning
        since={status.recording.since}
        paused={status.recording.paused}
        take={status.recording.takeName}
      />
    );
  }
  if (!onAirNotRecording(status, live.length)) return null;
  return (
    <a
      className="rec-warning"
      data-testid="on-air-not-recording"
      href="#/recorder"
      title={`${live.map((record) => record.name).join(', ')} live, and OBS records nothing`}
    >
      On air but not recording
    </a>
  );
}

/** Ticks every second while shown, only then. */
function RecRunning({ since, paused, take }: { since: string; paused: boolean; take: string | null }) {
  const now = useNow(1_000);
  const seconds = Math.max(0, (now - Date.parse(since)) / 1000);
  return (
    <a
      className={`rec ${paused ? 'rec-paused' : ''}`.trim()}
      data-testid="rec-indicator"
      href="#/recorder"
      title={`Recording take ${take ?? 'unknown'} since ${formatDateTime(since)}${paused ? ' (paused)' : ''}`}
    >
      <span className="rec-dot" aria-hidden="true" />
      {paused ? 'PAUSED' : 'REC'} <span className="rec-time">{position(seconds)}</span>
    </a>
  );
}
