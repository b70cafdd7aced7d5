import { peerNames, peerStateOf, type PeerHealth, type PeerName } from '../../shared/api/health.js';
import { refusedKeyWords, type PeerError } from './peer-error.js';
import { describePeerFailure } from './peer-failure.js';

type Probe = () => Promise<unknown>;

/** One attempt at a peer, as HttpClient reports it (onAttempt). */
export interface PeerAttempt {
  ok: boolean;
  latencyMs: number;
  error?: PeerError;
}

/**
 * The state of each peer (issue #38.3), fed by every real request (through HttpClient's onAttempt)
 * and by a light probe every 30 s, so /health answers from memory without calling anyone. The
 * recorder's OBS is configured here; its state comes from the recorder area's connection.
 */
export class PeerHealthTracker {
  private readonly state = new Map<PeerName, PeerHealth>();
  private readonly probes = new Map<PeerName, Probe>();

  constructor(
    urls: Partial<Record<PeerName, string | null>>,
    private readonly now: () => Date = () => new Date(),
  ) {
    for (const peer of peerNames) {
      const url = urls[peer] ?? null;
      this.state.set(peer, {
        configured: url !== null,
        state: null,
        until: null,
        reachable: null,
        latencyMs: null,
        checkedAt: null,
        lastError: null,
        lastErrorAt: null,
        url,
        refusedKeyFor: null,
      });
    }
  }

  observer(peer: PeerName) {
    return (attempt: PeerAttempt) => this.observe(peer, attempt);
  }

  private observe(peer: PeerName, { latencyMs, error }: PeerAttempt): void {
    const previous = this.state.get(peer)!;
    const at = this.now().toISOString();
    const failure = error === undefined ? undefined : describePeerFailure(error);
    // A 4xx about the request itself (a record gone, a value refused) is an answer: the peer works.
    if (failure === undefined || failure.cause === 'refused') {
      this.set(peer, { ...previous, state: 'reachable', until: null, latencyMs, checkedAt: at });
      return;
    }
    const state = peerStateOf(failure.cause);
    const until =
      state === 'throttled' && failure.retryAfterS !== undefined
        ? new Date(this.now().getTime() + failure.retryAfterS * 1000).toISOString()
        : null;
    this.set(peer, {
      ...previous,
      state,
      until,
      latencyMs: state === 'unreachable' ? null : latencyMs,
      checkedAt: at,
      lastError: error?.message ?? 'failed',
      lastErrorAt: at,
    });
  }

  private set(peer: PeerName, reading: PeerHealth): void {
    this.state.set(peer, {
      ...reading,
      reachable: reading.state === null ? null : reading.state === 'reachable',
    });
  }

  /** The peer's saved key belongs to another origin: it is sent nothing, and says why (issue #35.3). */
  refuseKey(peer: PeerName, savedFor: string): void {
    const previous = this.state.get(peer)!;
    this.set(peer, {
      ...previous,
      state: 'refused-key',
      refusedKeyFor: savedFor,
      lastError: refusedKeyWords(savedFor),
      lastErrorAt: this.now().toISOString(),
    });
  }

  setProbe(peer: PeerName, probe: Probe): void {
    this.probes.set(peer, probe);
  }

  async probeAll(): Promise<void> {
    await Promise.allSettled([...this.probes.values()].map((probe) => probe()));
  }

  snapshot(): Record<PeerName, PeerHealth> {
    return Object.fromEntries(peerNames.map((peer) => [peer, this.state.get(peer)!])) as Record<
      PeerName,
      PeerHealth
    >;
  }
}
