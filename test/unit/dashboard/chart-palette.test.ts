import { describe, expect, it } from 'vitest';
import { platformKeys } from '../../../shared/platforms.js';
import { chartPalette, platformColor } from '../../../renderer/src/chart-palette.js';

/** sRGB hex → relative luminance (WCAG 2). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

describe('chart palette', () => {
  it('gives the seven provider platforms seven distinct colours of the Okabe–Ito set', () => {
    const colours = platformKeys.map((key) => platformColor(key));
    expect(new Set(colours).size).toBe(7);
    for (const colour of colours) expect(chartPalette.okabeIto).toContain(colour);
  });

  it('keeps each platform on its colour whatever the order it is drawn in', () => {
    expect(platformColor('photogram', 0)).toBe(platformColor('photogram', 5));
  });

  it('draws every colour readable on the white panel (contrast at least 2:1, so no yellow)', () => {
    for (const colour of platformKeys.map((key) => platformColor(key))) {
      expect(1.05 / (luminance(colour) + 0.05)).toBeGreaterThanOrEqual(2);
    }
  });

  it('gives platforms outside the table distinct spare colours by their position', () => {
    const spares = [0, 1, 2].map((index) => platformColor(`other-${index}`, index));
    expect(new Set(spares).size).toBe(3);
    for (const spare of spares) expect(platformKeys.map((key) => platformColor(key))).not.toContain(spare);
  });
});
