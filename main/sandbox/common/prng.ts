/**
 * Deterministic randomness for the simulated peers: demo data, ids and analytics numbers
 * must come out the same for the same seed and clock, so nothing here uses Math.random.
 */

/** A 32-bit seed from any string (FNV-1a). */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `length` characters drawn from `alphabet`. */
  chars(length: number, alphabet: string): string;
}

/** mulberry32: tiny, fast, good enough for simulated data. */
export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    chars: (length, alphabet) => {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
  };
}

/** One deterministic draw in [0, 1) for a key: `unitHash('post123|microblog|likes')`. */
export function unitHash(key: string): number {
  return createPrng(hashSeed(key)).next();
}

export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
