import {
  clipRatioOf,
  fitClip,
  type ClipProblem,
  type ClipRatio,
  type ClipFitResult,
} from '../../../shared/clip-fit.js';

/** A Clip record: duration, aspectRatio, targetPlatforms and the three video URLs are read. */
export type ClipFields = Readonly<Record<string, unknown>>;

export interface ClipFit extends Omit<ClipFitResult, 'fitsPlatforms'> {
  /** The ratios the clip exists in: its aspectRatio plus every version with a URL. */
  ratios: ClipRatio[];
}

/** Clip attributes the fit depends on: an update touching none of them is not re-checked. */
export const CLIP_FIT_FIELDS = [
  'duration',
  'aspectRatio',
  'targetPlatforms',
  'videoUrlLandscape',
  'videoUrlPortrait',
  'videoUrlSquare',
] as const;

const present = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

/**
 * Reads a CRM Clip record into the one fit rule (shared/clip-fit.ts): its duration, the ratios it
 * exists in (aspectRatio, or a landscape/portrait/square URL) and its target platforms.
 */
export function checkClip(clip: ClipFields): ClipFit {
  const targets = Array.isArray(clip.targetPlatforms)
    ? clip.targetPlatforms.filter((p): p is string => typeof p === 'string')
    : [];
  const ratios = new Set<ClipRatio>();
  const unknownRatio: ClipProblem[] = [];
  if (typeof clip.aspectRatio === 'string' && clip.aspectRatio !== '') {
    const ratio = clipRatioOf(clip.aspectRatio);
    if (ratio) ratios.add(ratio);
    else
      unknownRatio.push({
        platform: null,
        kind: 'unknown-ratio',
        message: `aspect ratio "${clip.aspectRatio}" is none of 16:9, 9:16, 1:1`,
      });
  }
  if (present(clip.videoUrlLandscape)) ratios.add('16:9');
  if (present(clip.videoUrlPortrait)) ratios.add('9:16');
  if (present(clip.videoUrlSquare)) ratios.add('1:1');

  const durationS =
    typeof clip.duration === 'number' && Number.isFinite(clip.duration) && clip.duration > 0
      ? clip.duration
      : null;
  const fit = fitClip({ durationS, ratios: [...ratios], targets });
  const problems = [...unknownRatio, ...fit.problems];
  return { fits: problems.length === 0, checked: fit.checked, ratios: [...ratios], problems };
}
