import { clipPlatforms, clipRatioOf } from '../../../shared/platforms.js';

type Ratio = '16:9' | '9:16' | '1:1';

/** A Clip record: duration, aspectRatio, targetPlatforms and the three video URLs are read. */
export type ClipFields = Readonly<Record<string, unknown>>;

export interface ClipProblem {
  platform: string | null;
  kind: 'duration' | 'ratio' | 'unknown-platform' | 'unknown-ratio' | 'no-duration';
  message: string;
}

export interface ClipFit {
  fits: boolean;
  /** The target platforms that were checked. */
  checked: string[];
  /** The ratios the clip exists in: its aspectRatio plus every version with a URL. */
  ratios: Ratio[];
  problems: ClipProblem[];
}

/** As the spec's table writes them: 71 → "71 s", 140 → "2:20", 600 → "10 min". */
export function formatSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (seconds % 60 === 0) return `${minutes} min`;
  return `${minutes}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;
}

const present = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

/**
 * Checks a clip against the platform table of spec §2.3: each target platform's maximum
 * duration and preferred ratio. A platform is satisfied by any version of the clip in a
 * preferred ratio (aspectRatio, or a landscape/portrait/square URL).
 */
export function checkClip(clip: ClipFields): ClipFit {
  const problems: ClipProblem[] = [];
  const targets = Array.isArray(clip.targetPlatforms)
    ? clip.targetPlatforms.filter((p): p is string => typeof p === 'string')
    : [];
  const ratios = new Set<Ratio>();
  if (typeof clip.aspectRatio === 'string' && clip.aspectRatio !== '') {
    const ratio = clipRatioOf(clip.aspectRatio);
    if (ratio) ratios.add(ratio);
    else
      problems.push({
        platform: null,
        kind: 'unknown-ratio',
        message: `aspect ratio "${clip.aspectRatio}" is none of 16:9, 9:16, 1:1`,
      });
  }
  if (present(clip.videoUrlLandscape)) ratios.add('16:9');
  if (present(clip.videoUrlPortrait)) ratios.add('9:16');
  if (present(clip.videoUrlSquare)) ratios.add('1:1');

  const duration =
    typeof clip.duration === 'number' && Number.isFinite(clip.duration) && clip.duration > 0
      ? clip.duration
      : null;
  if (duration === null && targets.length > 0) {
    problems.push({
      platform: null,
      kind: 'no-duration',
      message: 'no duration set: the platform limits cannot be checked',
    });
  }

  for (const target of targets) {
    const platform = clipPlatforms.find((p) => p.name === target);
    if (!platform) {
      problems.push({
        platform: target,
        kind: 'unknown-platform',
        message: `${target}: not a clip platform of the spec table (${clipPlatforms.map((p) => p.name).join(', ')})`,
      });
      continue;
    }
    if (duration !== null && duration > platform.maxDurationS) {
      problems.push({
        platform: target,
        kind: 'duration',
        message: `${target}: ${formatSeconds(duration)} is longer than its ${formatSeconds(platform.maxDurationS)} maximum`,
      });
    }
    const preferred: readonly Ratio[] = platform.preferredRatios;
    if (ratios.size > 0 && !preferred.some((ratio) => ratios.has(ratio))) {
      problems.push({
        platform: target,
        kind: 'ratio',
        message: `${target}: prefers ${preferred.join(' or ')}, the clip exists in ${[...ratios].join(', ')} only`,
      });
    }
  }
  return { fits: problems.length === 0, checked: targets, ratios: [...ratios], problems };
}
