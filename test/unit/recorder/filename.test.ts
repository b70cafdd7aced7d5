import { describe, expect, it } from 'vitest';
import {
  checkRecorderFilename,
  recorderFilenameJsonSchema,
  suggestRecorderFilename,
} from '../../../shared/recorder-filename.js';

const day = new Date('2026-11-22T10:00:00Z');

describe('checkRecorderFilename', () => {
  it('accepts ordinary names, including non-ASCII', () => {
    expect(checkRecorderFilename('20261122_Episode_12_Guest')).toEqual({ ok: true });
    expect(checkRecorderFilename('Brücke – Folge 3.mp4')).toEqual({ ok: true });
    expect(checkRecorderFilename('Clip 😀 take 2')).toEqual({ ok: true });
  });
  it('accepts names that only start like a device name', () => {
    for (const name of [
      'CONSOLE',
      'com10',
      'LPT00.mp4',
      'auxiliary.mov',
      'NUL_take',
      'PRN-2026',
      'CLOCK',
      'CONIN',
    ])
      expect(checkRecorderFilename(name), name).toEqual({ ok: true });
  });
  it('names the device and the rule for a reserved name', () => {
    const check = checkRecorderFilename('Com3.mp4', day);
    expect(check).toMatchObject({ ok: false, suggestion: '20261122_Com3_mp4' });
    if (!check.ok)
      expect(check.rule).toBe(
        'filename must not be "Com3": a reserved device name on Windows (CON, PRN, AUX, NUL, CONIN$, CONOUT$, CLOCK$, COM0–COM9, LPT0–LPT9, also with ¹ ² ³), with or without an extension',
      );
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
    // exFAT and the ATEM (issue #12.9)
    ['next\u0085line', 'control characters'],
    ['a\u009fb', 'control characters'],
    ['evil\u202etxt.mp4', 'text-direction controls'],
    ['a\u202ab', 'text-direction controls'],
    ['a\u2066b\u2069', 'text-direction controls'],
    // Issue #25.7: invisible and direction characters (§6.7)
    ['con\u200b.mp4', 'text-direction controls'],
    ['left\u200eright', 'text-direction controls'],
    ['left\u200fright', 'text-direction controls'],
    ['arabic\u061cmark', 'text-direction controls'],
    ['line\u2028break', 'text-direction controls'],
    ['para\u2029break', 'text-direction controls'],
    ['join\u200dme', 'text-direction controls'],
    ['word\u2060joiner', 'text-direction controls'],
    ['bom\ufeff', 'text-direction controls'],
    ['half\ud800', 'unpaired surrogate'],
    ['\udfffhalf', 'unpaired surrogate'],
    ['CON', 'reserved device name'],
    ['con', 'reserved device name'],
    ['Nul.mp4', 'reserved device name'],
    ['aux.tar.gz', 'reserved device name'],
    ['PRN', 'reserved device name'],
    ['COM1', 'reserved device name'],
    ['lpt9.mov', 'reserved device name'],
    // Issue #25.7: the rest of Windows' reserved names (§6.7)
    ['COM¹.mp4', 'reserved device name'],
    ['lpt³', 'reserved device name'],
    ['COM0.mp4', 'reserved device name'],
    ['LPT0', 'reserved device name'],
    ['CON .mp4', 'reserved device name'],
    ['nul   .wav', 'reserved device name'],
    ['CONIN$', 'reserved device name'],
    ['conout$.log', 'reserved device name'],
    ['CLOCK$', 'reserved device name'],
  ])('refuses %j naming the rule', (name, rule) => {
    const check = checkRecorderFilename(name, day);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.rule).toContain(rule);
      expect(checkRecorderFilename(check.suggestion).ok).toBe(true);
    }
  });
});

describe('recorderFilenameJsonSchema: the rule as /openapi.json states it', () => {
  const pattern = new RegExp(recorderFilenameJsonSchema.pattern, 'u');
  it.each([
    '20261122_Episode_12_Guest',
    'Brücke – Folge 3.mp4',
    'Clip 😀 take 2',
    'CONSOLE',
    'com10',
    'a.b',
    '',
    '.',
    '..',
    ' lead',
    'trail.',
    'a/b',
    'what?',
    'tab\there',
    'next\u0085line',
    'evil\u202etxt.mp4',
    'a\u2066b',
    'half\ud800',
    'con\u200b.mp4',
    'a\u200eb',
    'line\u2028break',
  ])('agrees with checkRecorderFilename on %j', (name) => {
    expect(pattern.test(name)).toBe(checkRecorderFilename(name, day).ok);
  });
  // Without a look-ahead the device names are left to the bridge, as the description says.
  it.each(['CON', 'nul.mp4', 'Com3.tar.gz', 'lpt9', 'COM¹.mp4', 'CON .mp4', 'CLOCK$'])(
    'lets the bridge refuse the device name %j',
    (name) => {
      expect(pattern.test(name)).toBe(true);
      expect(checkRecorderFilename(name, day).ok).toBe(false);
      expect(recorderFilenameJsonSchema.description).toContain('not a Windows device name');
    },
  );
});

describe('suggestRecorderFilename', () => {
  it('is YYYYMMDD_<name> with each run of non-letters/digits as one _', () => {
    expect(suggestRecorderFilename('The Studio Hour: Ep. 12 / Jane', day)).toBe(
      '20261122_The_Studio_Hour_Ep_12_Jane',
    );
    expect(suggestRecorderFilename('***', day)).toBe('20261122_recording');
  });
});
