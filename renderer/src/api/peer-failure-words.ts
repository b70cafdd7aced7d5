import type { PeerFailure } from '../../../shared/api/contract.js';

/**
 * A peer's failure in words (issue #30): what happened and what to do, by its cause as the
 * bridge reports it in the error envelope's `peer`. One advice per peer ("check the API user's
 * key") whatever happened sent operators to Settings when the CRM was merely off.
 */
const peerLabels: Record<PeerFailure['name'], string> = {
  crm: 'The CRM',
  postsvc: 'The posting provider',
  gateway: 'The publishing gateway',
  automation: 'The automation engine (n8n)',
  obs: 'OBS',
};

/** "1 min", "45 s": how long a peer asked the bridge to wait. */
export function waitWords(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  return `${Math.round(seconds / 60)} min`;
}

/** The sentence for a peer's failure; null when the peer refused what was sent (its reason is the message). */
export function peerFailureSentence(peer: PeerFailure): string | null {
  const who = peerLabels[peer.name];
  const status = peer.status === undefined ? '' : ` (HTTP ${peer.status})`;
  switch (peer.cause) {
    case 'unreachable':
      return `${who} could not be reached: it is off, or its address in Settings is wrong. Try again once it is back.`;
    case 'no-answer':
      return `${who} did not answer in time: it may be overloaded. Try again in a minute.`;
    case 'throttled':
      return `${who} is limiting how often the bridge may ask${peer.retryAfterS === undefined ? '' : ` and asked it to wait ${waitWords(peer.retryAfterS)}`}. Try again after that; queued work waits by itself.`;
    case 'refused-key':
      return `${who} refused the bridge’s key${status}. Check its key in Settings.`;
    case 'failing':
      return `${who} is failing${status}. Try again in a minute; if it keeps failing, look at it directly.`;
    case 'unreadable':
      return `${who} answered something the bridge could not read. Check that its address in Settings points at it and not at another service.`;
    case 'refused':
      return null;
  }
}
