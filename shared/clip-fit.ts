import { clipPlatforms } from './clip-platforms.js';

/**
 * The one rule of what a clip fits (spec §2.3, DESIGN §6.6): a suggestion's `fitsPlatforms`, the
 * draft clip's check and any later warning all come from `fitClip`, so they never disagree. The
 * aspect ratio counts only once it is known (on the draft: a suggestion has none yet).
 */

export type ClipRatio = '16:9' | '9:16' | '1:1';
export type ClipPlatformName = (typeof clipPlatforms)[number]['name'];

export const clipPlatformNames: readonly ClipPlatformName[] = clipPlatforms.map((p) => p.name);

/** Clip.aspectRatio wire values → ratio (spec §2.3; only `Portrait 9:16` is confirmed). */
export function clipRatioOf(aspectRatio: string): ClipRatio | null {
  if (aspectRatio.includes('9:16')) return '9:16';
  if (aspectRatio.includes('16:9')) return '16:9';
  if (aspectRatio.includes('1:1')) return '1:1';
  return null;
}

/** As the spec's table writes them: 71 → "71 s", 140 → "2:20", 600 → "10 min". */
export function formatSeconds(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (seconds % 60 === 0) return `${minutes} min`;
  return `${minutes}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;
}

export interface ClipFitInput {
  /** Seconds; null when not known (a CRM clip without a duration). */
  durationS: number | null;
  /** The ratios the clip exists in; empty while unknown (a suggestion), so ratio is not judged. */
  ratios: readonly ClipRatio[];
  /** The platforms asked about; null: every clip platform (a suggestion asks which fit). */
  targets: readonly string[] | null;
}

export interface ClipProblem {
  platform: string | null;
  kind: 'duration' | 'ratio' | 'unknown-platform' | 'unknown-ratio' | 'no-duration';
  message: string;
}

export interface ClipFitResult {
  fits: boolean;
  /** The platforms checked, and of them those the clip fits, in the table's order. */
  checked: string[];
  fitsPlatforms: ClipPlatformName[];
  problems: ClipProblem[];
}

export function fitClip(clip: ClipFitInput): ClipFitResult {
  const targets = clip.targets ?? clipPlatformNames;
  const problems: ClipProblem[] = [];
  const fitsPlatforms: ClipPlatformName[] = [];
  if (clip.durationS === null && clip.targets !== null && targets.length > 0) {
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
        message: `${target}: not a clip platform of the spec table (${clipPlatformNames.join(', ')})`,
      });
      continue;
    }
    let fits = true;
    if (clip.durationS !== null && clip.durationS > platform.maxDurationS) {
      fits = false;
      problems.push({
        platform: target,
        kind: 'duration',
        message: `${target}: ${formatSeconds(clip.durationS)} is longer than its ${formatSeconds(platform.maxDurationS)} maximum`,
      });
    }
    const preferred: readonly ClipRatio[] = platform.preferredRatios;
    if (clip.ratios.length > 0 && !preferred.some((ratio) => clip.ratios.includes(ratio))) {
      fits = false;
      problems.push({
        platform: target,
        kind: 'ratio',
        message: `${target}: prefers ${preferred.join(' or ')}, the clip exists in ${clip.ratios.join(', ')} only`,
      });
    }
    if (fits && clip.durationS !== null) fitsPlatforms.push(platform.name);
  }
  return { fits: problems.length === 0, checked: [...targets], fitsPlatforms, problems };
}

/**
 * The words of a misfit, as the activity feed and the Clips page both show them. A name that
 * carries its own quotes (the default draft name starts with the quoted hook) is not quoted again.
 */
export function misfitMessage(name: string, problems: readonly ClipProblem[]): string {
  return `Clip ${clipNameQuoted(name)} does not fit: ${problems.map((p) => p.message).join('; ')}`;
}

/** A clip's name in quotes, unless it starts with its own (`"The truth is…" (Episode 12, 4:05–4:52)`). */
export function clipNameQuoted(name: string): string {
  return /^["“'‘]/.test(name) ? name : `"${name}"`;
}
