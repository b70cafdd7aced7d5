import { peerNames, type PeerHealth, type PeerName } from '../../shared/api/health.js';
import { refusedKeyWords, type PeerError } from './peer-error.js';

type Probe = () => Promise<unknown>;

/**
 * Reachability of each peer, fed by every real request (through HttpClient's onAttempt) and
 * by a light probe every 30 s, so /health answers from memory without calling anyone.
 */
export class PeerHealthTracker {
  private readonly state = new Map<PeerName, PeerHealth>();
  private readonly probes = new Map<PeerName, Probe>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    urls: Partial<Record<PeerName, string | null>>,
    private readonly now: () => Date = () => new Date(),
  ) {
    for (const peer of peerNames) {
      const url = urls[peer] ?? null;
      this.state.set(peer, {
        configured: url !== null,
        reachable: null,
        latencyMs: null,
        checkedAt: null,
        lastError: null,
        url,
        refusedKeyFor: null,
      });
    }
  }

  observer(peer: PeerName) {
    return (outcome: { ok: boolean; latencyMs: number; error?: PeerError }) => {
      const previous = this.state.get(peer)!;
      this.state.set(peer, {
        ...previous,
        reachable: outcome.ok,
        latencyMs: outcome.latencyMs,
        checkedAt: this.now().toISOString(),
        lastError: outcome.ok ? previous.lastError : (outcome.error?.message ?? 'failed'),
      });
    };
  }

  /** The peer's saved key belongs to another origin: it is sent nothing, and says why (issue #35.3). */
  refuseKey(peer: PeerName, savedFor: string): void {
    const previous = this.state.get(peer)!;
    this.state.set(peer, { ...previous, refusedKeyFor: savedFor, lastError: refusedKeyWords(savedFor) });
  }

  setProbe(peer: PeerName, probe: Probe): void {
    this.probes.set(peer, probe);
  }

  async probeAll(): Promise<void> {
    await Promise.allSettled([...this.probes.values()].map((probe) => probe()));
  }

  startProbing(intervalMs = 30_000): void {
    void this.probeAll();
    this.timer = setInterval(() => void this.probeAll(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  snapshot(): Record<PeerName, PeerHealth> {
    return Object.fromEntries(peerNames.map((peer) => [peer, this.state.get(peer)!])) as Record<
      PeerName,
      PeerHealth
    >;
  }

  /** Degraded when a configured peer is known to be unreachable, or is refused its key. */
  degraded(): boolean {
    return [...this.state.values()].some(
      (peer) => peer.configured && (peer.reachable === false || peer.refusedKeyFor !== null),
    );
  }
}
