export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** 0.1 = ±10 %. */
  jitter: number;
}

/** DESIGN §6.2: from 2 s doubling to 10 min, ±10 % jitter. */
export const peerRetryBackoff: BackoffPolicy = { baseMs: 2_000, maxMs: 600_000, jitter: 0.1 };

/** Delay before retry number `attempt` (1 = first retry). */
export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const spread = exponential * policy.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(exponential + spread));
}
