import { describe, expect, it } from 'vitest';
import { presets } from '../../../integrations/companion/src/presets.js';
import { layoutKeyText, textWidth } from '../../support/companion/key-text.js';

/**
 * The preset page's texts on Companion's default 72-px keys (issue #38.6: the real Companion
 * showed "MAR/K", "BROADC/AST", "2 Dec 09:"). Each text, with its variables at their longest
 * usual values, is laid out as Companion 4.3 lays it (test/support/companion/key-text.ts): no
 * word may be cut (a line ends at the text's own line break, a space, or a filename's `_`/`-`),
 * and every line must be drawn.
 */
const LABEL = 'bridge';
const samples: Record<string, string> = {
  next_filename: '20261127_The_Studio_Hour_7_T02',
  take_number: '12',
  last_take_file: '20261127_The_Studio_Hour_7_T02.mkv',
  on_air_name: 'Studio Hour live',
  on_air_viewers: '12499',
  // The longest form: another day, in the widest month ("28 May 09:00").
  next_post_time: '28 May 09:00',
  posts_left_today: '100',
};
/** A post's own words: Companion shows what fits of them. */
const FREE_TEXT = new Set(['next_post_text']);

const withSamples = (text: string) =>
  text.replaceAll(/\$\(([^:)]+):([^)]+)\)/g, (_, label: string, id: string) => {
    expect(label).toBe(LABEL);
    return samples[id] ?? '';
  });

const keys = Object.entries(presets(LABEL).definitions).flatMap(([id, preset]) => {
  if (preset?.type !== 'simple') return [];
  const styles = [preset.style, ...preset.feedbacks.map((f) => ({ size: preset.style.size, ...f.style }))];
  return styles.flatMap(({ text, size }) =>
    typeof text === 'string' && ![...FREE_TEXT].some((variable) => text.includes(`:${variable})`))
      ? [{ id, text, size }]
      : [],
  );
});

describe('the preset page on 72-px keys', () => {
  it('has a text of each kind to check', () => {
    expect(keys.length).toBeGreaterThanOrEqual(20);
  });

  it.each(keys)('$id: "$text" fits, no word cut', ({ text, size }) => {
    expect(typeof size === 'number' || /^\d+$/.test(String(size)), 'an explicit size').toBe(true);
    const layout = layoutKeyText(withSamples(text), Number(size));
    const lines = layout.lines.map((line) => line.text);
    expect(
      layout.lines.filter((line) => !['newline', 'space', '_', '-', 'end'].includes(line.end)),
      `cut inside a word: ${JSON.stringify(lines)}`,
    ).toEqual([]);
    expect(layout.fits, `lines not drawn: ${JSON.stringify(lines)}`).toBe(true);
  });
});

describe('the key-text model', () => {
  it('reproduces what the real Companion showed', () => {
    expect(layoutKeyText('MARK', 24).lines.map((l) => l.text)).toEqual(['MAR', 'K']);
    expect(layoutKeyText('END\\nBROADCAST', 14).lines.map((l) => l.text)).toEqual(['END', 'BROADC', 'AST']);
    // Four lines at 14 px: the last one ("00") is not drawn.
    const nextPost = layoutKeyText('NEXT POST\\n2 Dec 09:00', 14);
    expect(nextPost.lines.map((l) => l.text)).toEqual(['NEXT', 'POST', '2 Dec 09:', '00']);
    expect(nextPost.fits).toBe(false);
    expect(textWidth('MARK', 24)).toBeCloseTo(69.3, 1);
  });
});
