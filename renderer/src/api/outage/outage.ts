/**
 * Issue #30.5, "after an outage": which failures mean the bridge could not be reached (so the
 * error they put on screen goes away by itself once it answers again), and the reachable / not
 * reachable state they drive. Pure: bridge-reach.ts holds the state, outage-recovery.ts acts on it.
 */

/** What a failed call is judged by (ApiError has both). */
export interface FailedCall {
  /** HTTP status; 0 when no answer came at all. */
  readonly status: number;
  /** The answer carried the bridge's own error envelope (DESIGN §4), so the bridge itself answered. */
  readonly answeredByBridge: boolean;
}

/**
 * What a proxy or tunnel in front of the bridge answers, with a page of its own, while the bridge
 * behind it is down. The bridge answers 503 too (a peer or storage it waits for), always with its
 * envelope: that is its answer, not an outage.
 */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * True when the bridge was not there to answer: no answer at all (refused, reset, DNS, offline), or
 * a gateway error that is not the bridge's. A refusal (4xx) or any answer in the bridge's own
 * envelope is the bridge speaking, and stays on screen until dismissed or redone.
 */
export function isOutageFailure(failure: FailedCall): boolean {
  if (failure.status === 0) return true;
  return GATEWAY_STATUSES.has(failure.status) && !failure.answeredByBridge;
}

/** Whether the dashboard can reach the bridge now, and since when it cannot (epoch ms). */
export type BridgeReach = { reachable: true } | { reachable: false; since: number };

/** What a call or the event stream tells about the bridge. */
export type ReachSignal = { kind: 'unreachable'; at: number } | { kind: 'answered' };

/** The state after `signal`: an outage starts at its first failure and ends at the first answer. */
export function reachAfter(current: BridgeReach, signal: ReachSignal): BridgeReach {
  if (signal.kind === 'answered') return current.reachable ? current : { reachable: true };
  return current.reachable ? { reachable: false, since: signal.at } : current;
}

/** The moment to clear the outage's errors and read the data again: it was down and answers now. */
export function isRecovery(before: BridgeReach, after: BridgeReach): boolean {
  return !before.reachable && after.reachable;
}
