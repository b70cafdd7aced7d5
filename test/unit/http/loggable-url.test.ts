import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from '../../../main/http/body.js';
import { loggableUrl } from '../../../main/http/loggable-url.js';

describe('loggableUrl', () => {
  it('redacts secret-named parameters by their decoded name, keeping the rest', () => {
    expect(loggableUrl('/events?key=abc&limit=5')).toBe('/events?key=[redacted]&limit=5');
    expect(loggableUrl('/events?%6bey=abc')).toBe('/events?%6bey=[redacted]');
    expect(loggableUrl('/x?api_Token=t&secret=s&x=1')).toBe('/x?api_Token=[redacted]&secret=[redacted]&x=1');
    expect(loggableUrl('/health')).toBe('/health');
  });

  it('redacts a parameter whose name does not decode', () => {
    expect(loggableUrl('/x?%ff=abc&a=1')).toBe('/x?%ff=[redacted]&a=1');
  });
});

describe('nestedDeeperThan', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(nestedDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
    expect(nestedDeeperThan('text', 0)).toBe(false);
  });

  it('walks 100 000 levels without recursion', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(nestedDeeperThan(deep, 64)).toBe(true);
  });
});
