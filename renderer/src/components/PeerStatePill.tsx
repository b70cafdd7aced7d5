import type { PeerHealth, PeerState } from '../../../shared/api/health.js';
import { peerStateWords } from '../api/words.js';
import { StatusPill, type Tone } from './StatusPill.js';

const stateTone: Record<PeerState, Tone> = {
  reachable: 'ok',
  throttled: 'warn',
  failing: 'bad',
  unreachable: 'bad',
  'refused-key': 'bad',
};

/** A peer's tone: its state's, neutral while not configured or not checked yet. */
export function peerTone(peer: PeerHealth): Tone {
  return peer.configured && peer.state !== null ? stateTone[peer.state] : 'neutral';
}

/** A peer's state in its one word ("Throttled until 14:05"), coloured by what it asks of the operator. */
export function PeerStatePill({ peer, title }: { peer: PeerHealth; title?: string }) {
  return (
    <StatusPill tone={peerTone(peer)} {...(title === undefined ? {} : { title })}>
      {peerStateWords(peer)}
    </StatusPill>
  );
}
