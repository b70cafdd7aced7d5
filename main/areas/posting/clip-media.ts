import { fitClip, type ClipPlatformName } from '../../../shared/clip-fit.js';
import type { RuleIssue } from '../../../shared/post-rules.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import type { ClipMedia } from '../area.js';

/** The clip table's platform (spec §2.3) a posting platform publishes clips to; none for the others. */
const clipPlatformOf: Partial<Record<PlatformKey, ClipPlatformName>> = {
  videosite: 'Videosite Shorts',
  photogram: 'Photogram Reels',
  shortvideo: 'Shortvideo',
  microblog: 'Microblog',
  socialnet: 'Socialnet Reels',
};

/**
 * A post carrying a rendered clip made ready (issue #44.2): its media must still be served when the
 * post goes out (the provider keeps uploads 30 days), and the clip must fit each platform by the one
 * clip rule (length refused, ratio said).
 */
export function clipMediaIssues(
  draft: { platforms: readonly PlatformKey[]; mediaUrls: readonly string[] },
  publishAt: Date,
  lookup: (url: string) => ClipMedia | null,
): { errors: RuleIssue[]; warnings: string[] } {
  const errors: RuleIssue[] = [];
  const warnings: string[] = [];
  for (const [i, url] of draft.mediaUrls.entries()) {
    const media = lookup(url);
    if (!media) continue;
    if (Date.parse(media.expiresAt) <= publishAt.getTime()) {
      errors.push({
        field: `mediaUrls.${i}`,
        rule: 'media-expired',
        message: `mediaUrls.${i}: the clip's upload is served until ${media.expiresAt}, before the post goes out at ${publishAt.toISOString()}: upload it again (the clip's Upload again) or post earlier`,
        code: 'INVALID_MEDIA',
      });
    }
    const targets = draft.platforms.flatMap((platform) => clipPlatformOf[platform] ?? []);
    if (media.ratio === null || targets.length === 0) continue;
    for (const problem of fitClip({ durationS: media.durationS, ratios: [media.ratio], targets }).problems) {
      if (problem.kind === 'duration')
        errors.push({
          field: `mediaUrls.${i}`,
          rule: 'clip-duration',
          message: `mediaUrls.${i}: ${problem.message}`,
          code: 'INVALID_MEDIA',
        });
      else warnings.push(`mediaUrls.${i}: ${problem.message}`);
    }
  }
  return { errors, warnings };
}
