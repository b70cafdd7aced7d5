/**
 * The frame rates an editor's timeline runs at (DESIGN §6.6): 29.97 and 59.94 count drop-frame
 * timecode. A take's own rate (OBS's fpsNumerator/fpsDenominator) is one of them or none.
 */
export const edlFrameRates = ['23.976', '24', '25', '29.97', '30', '50', '59.94', '60'] as const;
export type EdlFrameRate = (typeof edlFrameRates)[number];

/** Each rate as a fraction: 29.97 is 30000/1001. */
export const frameRateFractions: Record<EdlFrameRate, { numerator: number; denominator: number }> = {
  '23.976': { numerator: 24000, denominator: 1001 },
  '24': { numerator: 24, denominator: 1 },
  '25': { numerator: 25, denominator: 1 },
  '29.97': { numerator: 30000, denominator: 1001 },
  '30': { numerator: 30, denominator: 1 },
  '50': { numerator: 50, denominator: 1 },
  '59.94': { numerator: 60000, denominator: 1001 },
  '60': { numerator: 60, denominator: 1 },
};

/** The timeline rate of numerator/denominator frames a second (30000/1001 → 29.97), or null. */
export function frameRateOf(numerator: number, denominator: number): EdlFrameRate | null {
  if (!(numerator > 0 && denominator > 0)) return null;
  return (
    edlFrameRates.find((rate) => {
      const fraction = frameRateFractions[rate];
      return fraction.numerator * denominator === numerator * fraction.denominator;
    }) ?? null
  );
}
