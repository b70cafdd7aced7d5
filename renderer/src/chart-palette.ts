import { platformKeys } from '../../shared/platforms.js';

/**
 * The one palette of the dashboard's charts. Okabe & Ito's colour-blind-safe set (2008) without
 * its yellow, which is unreadable as a thin line on a white panel: exactly seven colours that stay
 * apart under the common colour-vision deficiencies, one per provider platform, in the platform
 * table's order. Every chart and legend takes its colours from here, so a platform looks the same
 * everywhere.
 */
const okabeIto = [
  '#0072B2', // blue
  '#E69F00', // orange
  '#009E73', // bluish green
  '#CC79A7', // reddish purple
  '#56B4E9', // sky blue
  '#D55E00', // vermillion
  '#000000', // black
] as const;

/** Platforms outside the table (e.g. video-only platforms in content metrics): greys and a dark yellow. */
const spare = ['#7A7A7A', '#A08A00', '#3D3D3D', '#B0B0B0'] as const;

export const chartPalette = { okabeIto, spare } as const;

const byPlatform = new Map<string, string>(platformKeys.map((key, index) => [key, okabeIto[index] ?? '']));

/** The platform's colour; `index` (its position in the chart) picks a spare for unknown platforms. */
export function platformColor(platform: string, index = 0): string {
  return byPlatform.get(platform) ?? spare[index % spare.length] ?? '#7A7A7A';
}
