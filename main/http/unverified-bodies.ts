/**
 * Places for request bodies read before they are verified (issue #35.4, DESIGN §4): a webhook
 * whose well-formed Signature can only be checked against the whole body. Anyone can send one,
 * so they get so many places per client and in all, and so many bytes held in all (a forged
 * body is read to its end before it is refused). Requests carrying the key, /health and verified
 * webhooks never take one: they are told apart by their headers, before any place is asked for.
 */
export interface UnverifiedLimits {
  perClient: number;
  total: number;
  /** Bytes held by all unverified bodies at once. */
  bytes: number;
}

/** One body's place: what it holds is given back on release (once, however often called). */
export interface UnverifiedPlace {
  /** Counts `bytes` more of this body; false when that would pass the bytes held in all. */
  take(bytes: number): boolean;
  release(): void;
}

export type Admission = { ok: true; place: UnverifiedPlace } | { ok: false; reason: string };

export class UnverifiedBodies {
  private readonly perClient = new Map<string, number>();
  private total = 0;
  private bytes = 0;

  constructor(private readonly limits: UnverifiedLimits) {}

  admit(client: string): Admission {
    const own = this.perClient.get(client) ?? 0;
    if (own >= this.limits.perClient)
      return {
        ok: false,
        reason: `${this.limits.perClient} requests from this address are already sending bodies not yet verified`,
      };
    if (this.total >= this.limits.total)
      return {
        ok: false,
        reason: `the bridge is already reading ${this.limits.total} requests whose bodies are not yet verified`,
      };
    this.perClient.set(client, own + 1);
    this.total++;
    let held = 0;
    let released = false;
    return {
      ok: true,
      place: {
        take: (bytes) => {
          if (this.bytes + bytes > this.limits.bytes) return false;
          this.bytes += bytes;
          held += bytes;
          return true;
        },
        release: () => {
          if (released) return;
          released = true;
          this.bytes -= held;
          this.total--;
          const left = (this.perClient.get(client) ?? 1) - 1;
          if (left > 0) this.perClient.set(client, left);
          else this.perClient.delete(client);
        },
      },
    };
  }
}
