import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Arming, ARM_WINDOW_MS } from '../../../integrations/companion/src/arming.js';

describe('two presses for a public action', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('arms on the first press, acts on a second within 5 s, and disarms', () => {
    const changes = vi.fn();
    const arming = new Arming(changes);
    expect(arming.press('post_now:next')).toBe('armed');
    expect(arming.isArmed('post_now:')).toBe(true);
    vi.advanceTimersByTime(ARM_WINDOW_MS - 1);
    expect(arming.press('post_now:next')).toBe('act');
    expect(arming.isArmed('post_now:')).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('a second press after 5 s arms again, and the window’s end is announced', () => {
    const changes = vi.fn();
    const arming = new Arming(changes);
    arming.press('end_broadcast:live');
    vi.advanceTimersByTime(ARM_WINDOW_MS);
    expect(arming.isArmed('end_broadcast:live')).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
    expect(arming.press('end_broadcast:live')).toBe('armed');
  });

  it('targets are separate: arming one post does not let another act', () => {
    const arming = new Arming(() => undefined);
    arming.press('post_now:api:1');
    expect(arming.press('post_now:api:2')).toBe('armed');
    expect(arming.isArmed('end_broadcast:')).toBe(false);
  });
});
