import { useSyncExternalStore } from 'react';
import { isRecovery, reachAfter } from './outage.js';
import type { BridgeReach, ReachSignal } from './outage.js';

/**
 * Whether the bridge answers, as an external store fed by every call (client.ts) and the event
 * stream (use-live-activity.ts). The shell shows "Bridge unreachable — retrying…" while it does
 * not; outage-recovery.ts listens for the change back.
 */
let state: BridgeReach = { reachable: true };
const listeners = new Set<() => void>();

function report(signal: ReachSignal): void {
  const next = reachAfter(state, signal);
  if (next === state) return;
  const before = state;
  state = next;
  for (const listener of listeners) listener();
  if (isRecovery(before, next)) for (const recovered of recoveryListeners) recovered();
  else if (!next.reachable) for (const lost of lostListeners) lost();
}

const recoveryListeners = new Set<() => void>();
const lostListeners = new Set<() => void>();

export const bridgeReach = {
  get: (): BridgeReach => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** A call got no answer from the bridge (or a proxy's 502–504 in its place). */
  unreachable(): void {
    report({ kind: 'unreachable', at: Date.now() });
  },
  /** The bridge answered something: a success, a refusal in its own words, or the event stream opened. */
  answered(): void {
    report({ kind: 'answered' });
  },
  /** Called once per outage, when the bridge answers again. */
  onRecovery(listener: () => void): () => void {
    recoveryListeners.add(listener);
    return () => recoveryListeners.delete(listener);
  },
  /** Called once per outage, at its first failure. */
  onLost(listener: () => void): () => void {
    lostListeners.add(listener);
    return () => lostListeners.delete(listener);
  },
};

export function useBridgeReach(): BridgeReach {
  return useSyncExternalStore(bridgeReach.subscribe, bridgeReach.get);
}
