import { describe, expect, it } from 'vitest';
import { UnverifiedBodies } from '../../../main/http/unverified-bodies.js';

/** Issue #35.4: places for bodies read before they are verified, per address and in all. */
describe('UnverifiedBodies', () => {
  const limits = { perClient: 2, total: 3, bytes: 1_000 };

  it('gives each address its places, and refuses past them naming the limit', () => {
    const places = new UnverifiedBodies(limits);
    expect(places.admit('10.0.0.1').ok).toBe(true);
    expect(places.admit('10.0.0.1').ok).toBe(true);
    const third = places.admit('10.0.0.1');
    expect(third).toEqual({ ok: false, reason: expect.stringContaining('2 requests from this address') });
    expect(places.admit('10.0.0.2').ok).toBe(true);
  });

  it('refuses past the places in all, whatever the address', () => {
    const places = new UnverifiedBodies(limits);
    places.admit('10.0.0.1');
    places.admit('10.0.0.2');
    places.admit('10.0.0.3');
    expect(places.admit('10.0.0.4')).toEqual({ ok: false, reason: expect.stringContaining('3 requests') });
  });

  it('frees a place once, however often it is released', () => {
    const places = new UnverifiedBodies(limits);
    const first = places.admit('10.0.0.1');
    places.admit('10.0.0.1');
    if (!first.ok) throw new Error('admitted');
    first.place.release();
    first.place.release();
    expect(places.admit('10.0.0.1').ok).toBe(true);
    expect(places.admit('10.0.0.1').ok).toBe(false);
  });

  it('holds at most so many bytes in all: the chunk that passes it is refused, a release gives them back', () => {
    const places = new UnverifiedBodies(limits);
    const a = places.admit('10.0.0.1');
    const b = places.admit('10.0.0.2');
    if (!a.ok || !b.ok) throw new Error('admitted');
    expect(a.place.take(600)).toBe(true);
    expect(b.place.take(300)).toBe(true);
    expect(b.place.take(101)).toBe(false);
    a.place.release();
    expect(b.place.take(101)).toBe(true);
  });
});
