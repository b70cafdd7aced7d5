import { useLiveBroadcasts } from '../broadcasts/api.js';
import { useRecorderStatus } from './api.js';
import { onAirNotRecording } from './on-air-recording.js';

/** The Recorder page's warning while a broadcast is live and OBS, connected, records nothing. */
export function OnAirWarning() {
  const status = useRecorderStatus().data;
  const live = useLiveBroadcasts();
  if (!onAirNotRecording(status, live.length)) return null;
  const names = live.map((record) => record.name).join(', ');
  return (
    <div className="banner banner-warn recorder-on-air" role="alert" data-testid="recorder-on-air-warning">
      <div>
        <strong>On air but not recording.</strong>
        <span className="banner-detail">
          {names} {live.length === 1 ? 'is' : 'are'} live and OBS is connected, but no take is being recorded:
          start recording in OBS if this broadcast should have one.
        </span>
      </div>
    </div>
  );
}
