import { describe, expect, it } from 'vitest';
import { isOutageFailure, isRecovery, reachAfter } from '../../../renderer/src/api/outage/outage.js';
import type { BridgeReach } from '../../../renderer/src/api/outage/outage.js';

/** Issue #30.5: which failures clear by themselves once the bridge answers again. */
describe('isOutageFailure', () => {
  it('counts no answer at all (refused, reset, offline) as the bridge being unreachable', () => {
    expect(isOutageFailure({ status: 0, answeredByBridge: false })).toBe(true);
  });

  it.each([502, 503, 504])(
    'counts a proxy or tunnel’s %i (not in the bridge’s envelope) as an outage',
    (status) => {
      expect(isOutageFailure({ status, answeredByBridge: false })).toBe(true);
    },
  );

  it.each([502, 503, 504])('keeps a %i in the bridge’s own envelope: that is its answer', (status) => {
    expect(isOutageFailure({ status, answeredByBridge: true })).toBe(false);
  });

  it.each([400, 401, 404, 409, 413, 429])('keeps a refusal (%i), with or without the envelope', (status) => {
    expect(isOutageFailure({ status, answeredByBridge: true })).toBe(false);
    expect(isOutageFailure({ status, answeredByBridge: false })).toBe(false);
  });

  it('keeps other server errors: the bridge answered, it failed at something', () => {
    expect(isOutageFailure({ status: 500, answeredByBridge: true })).toBe(false);
    expect(isOutageFailure({ status: 500, answeredByBridge: false })).toBe(false);
    expect(isOutageFailure({ status: 507, answeredByBridge: true })).toBe(false);
  });
});

describe('reachAfter / isRecovery', () => {
  const up: BridgeReach = { reachable: true };

  it('starts an outage at its first failure and keeps that moment through later failures', () => {
    const down = reachAfter(up, { kind: 'unreachable', at: 1_000 });
    expect(down).toEqual({ reachable: false, since: 1_000 });
    expect(reachAfter(down, { kind: 'unreachable', at: 5_000 })).toBe(down);
    expect(isRecovery(up, down)).toBe(false);
  });

  it('ends it at the first answer, which is the one recovery', () => {
    const down: BridgeReach = { reachable: false, since: 1_000 };
    const back = reachAfter(down, { kind: 'answered' });
    expect(back).toEqual({ reachable: true });
    expect(isRecovery(down, back)).toBe(true);
    // Answers while reachable change nothing: no recovery is announced twice.
    expect(reachAfter(back, { kind: 'answered' })).toBe(back);
    expect(isRecovery(back, reachAfter(back, { kind: 'answered' }))).toBe(false);
  });
});
