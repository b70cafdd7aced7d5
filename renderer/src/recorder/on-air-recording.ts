import type { RecorderStatus } from '../../../shared/api/recorder.js';

/**
 * On air while OBS is connected and records nothing (issue #41.3): the take the studio will want
 * is not being made. Not said without a recorder, or while OBS is away (the card says that).
 */
export function onAirNotRecording(status: RecorderStatus | undefined, liveCount: number): boolean {
  if (!status || liveCount === 0) return false;
  const { connection, recording } = status;
  return connection.configured && connection.connected && !recording.active;
}
