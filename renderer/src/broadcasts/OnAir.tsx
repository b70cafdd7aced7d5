import { useLiveBroadcasts } from './api.js';

/** The header's ON AIR sign while any broadcast is live. */
export function OnAir() {
  const live = useLiveBroadcasts();
  if (live.length === 0) return null;
  const names = live.map((record) => record.name).join(', ');
  return (
    <a className="on-air" data-testid="on-air" href="#/broadcasts" title={`Live now: ${names}`}>
      <span className="on-air-dot" aria-hidden="true" />
      ON AIR
      <span className="on-air-name">{live.length === 1 ? live[0]!.name : `${live.length} broadcasts`}</span>
    </a>
  );
}
