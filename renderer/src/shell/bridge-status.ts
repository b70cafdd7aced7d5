import { peerNames, type HealthResponse } from '../../../shared/api/health.js';
import { isPeerDown, peerLine } from '../api/words.js';
import { peerTone } from '../components/PeerStatePill.js';
import type { Tone } from '../components/StatusPill.js';

/**
 * The header's bridge status: "Bridge OK" only while nothing is wrong; a peer that is not
 * reachable is named in its one word ("Posting provider · Throttled until 14:05"), several are
 * counted (each named in the title); otherwise "Bridge degraded" (the Overview says why).
 */
export function bridgeStatus(health: HealthResponse): { tone: Tone; label: string; title: string } {
  const version = `Bridge ${health.version}`;
  const peers = health.peers;
  const down = peers ? peerNames.filter((name) => isPeerDown(peers[name])) : [];
  const lines = peers ? down.map((name) => peerLine(name, peers[name])) : [];
  const title = [...lines, version].join('\n');
  const [only] = down;
  if (peers && only !== undefined && down.length === 1) {
    return { tone: peerTone(peers[only]), label: lines[0] ?? '', title };
  }
  if (down.length > 1) return { tone: 'bad', label: `${down.length} peers not reachable`, title };
  if (health.status === 'ok') return { tone: 'ok', label: 'Bridge OK', title };
  return { tone: 'warn', label: 'Bridge degraded', title };
}
