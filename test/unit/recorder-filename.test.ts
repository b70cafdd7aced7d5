import { describe, expect, it } from 'vitest';
import { checkRecorderFilename, suggestRecorderFilename } from '../../shared/recorder-filename.js';

const day = new Date('2026-11-22T10:00:00Z');

describe('checkRecorderFilename', () => {
  it('accepts ordinary names, including non-ASCII', () => {
    expect(checkRecorderFilename('20261122_Episode_12_Guest')).toEqual({ ok: true });
    expect(checkRecorderFilename('Brücke – Folge 3.mp4')).toEqual({ ok: true });
  });
  it.each([
    ['', 'must not be empty'],
    ['a/b', '"/"'],
    ['a\\b', '"\\"'],
    ['what?', '"?"'],
    ['x'.repeat(129), '129 bytes'],
    ['é'.repeat(65), '130 bytes'],
    ['tab\there', 'control characters'],
    ['..', 'must not be'],
    [' lead', 'start or end'],
    ['trail.', 'start or end'],
  ])('refuses %j naming the rule', (name, rule) => {
    const check = checkRecorderFilename(name, day);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.rule).toContain(rule);
      expect(checkRecorderFilename(check.suggestion).ok).toBe(true);
    }
  });
});

describe('suggestRecorderFilename', () => {
  it('is YYYYMMDD_<name> with each run of non-letters/digits as one _', () => {
    expect(suggestRecorderFilename('The Studio Hour: Ep. 12 / Jane', day)).toBe(
      '20261122_The_Studio_Hour_Ep_12_Jane',
    );
    expect(suggestRecorderFilename('***', day)).toBe('20261122_recording');
  });
});
