import type { ObsClient } from '../../peers/obs.js';
import type { RecorderPeerReading } from '../area.js';

/**
 * What the recorder's connection says of OBS for /health, in the one word (issue #38.3).
 * Connected: reachable. Its password refused (OBS's own words kept), or the saved one belongs to
 * another origin: refused-key. Otherwise, once an attempt has ended: unreachable (reconnecting).
 * Null before the first attempt ends. A live connection is read now; a lost one when it failed.
 */
export function recorderPeerReading(obs: ObsClient, now: Date): RecorderPeerReading {
  const { connected, since, lastError, lastErrorAt, refused } = obs.status();
  if (connected) return { state: 'reachable', checkedAt: now.toISOString(), lastError, lastErrorAt };
  const checkedAt = lastErrorAt ?? since;
  if (checkedAt === null) return { state: null, checkedAt: null, lastError, lastErrorAt };
  return { state: refused ? 'refused-key' : 'unreachable', checkedAt, lastError, lastErrorAt };
}
