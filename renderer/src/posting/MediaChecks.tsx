import { postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import { isHttpUrl, mediaCheck, type MediaCheck } from '../../../shared/post-rules.js';

/** The last part of a URL's path: enough to tell which link is meant. */
function fileOf(url: string): string {
  if (!URL.canParse(url)) return url;
  const { pathname, host } = new URL(url);
  return pathname.split('/').filter(Boolean).pop() ?? host;
}

function verdictText(check: MediaCheck, mediaUrls: readonly string[], refused: number): string {
  switch (check.verdict) {
    case 'ok':
      return 'found';
    case 'missing':
      return refused > 0 ? 'no usable link yet' : 'add a media link';
    case 'wrong':
      return `${mediaUrls.map(fileOf).join(', ')} is not one`;
    case 'unknown':
      return 'the link does not say what it is; make sure it is one';
  }
}

/**
 * What each chosen platform needs in media (DESIGN §6.8), judged from the links' extensions as
 * the bridge does, shown beside the media field while typing: a missing or wrong kind blocks
 * the post, a link whose kind cannot be told is a warning. Only links the bridge takes as links
 * (http or https) count: `ftp://…/cover.png` is refused by the bridge, so it is never "found"
 * here (issue #30.4); the refusal itself is said at that link's line (FieldNotes).
 */
export function MediaChecks({
  platforms,
  mediaUrls,
}: {
  platforms: readonly PlatformKey[];
  mediaUrls: readonly string[];
}) {
  const usable = mediaUrls.filter(isHttpUrl);
  const refused = mediaUrls.length - usable.length;
  const checks = platforms.map((platform) => mediaCheck(platform, usable)).filter((c) => c.needs);
  if (checks.length === 0) return null;
  return (
    <ul className="posts-media-checks" data-testid="media-checks" aria-live="polite">
      {checks.map((check) => (
        <li
          key={check.platform}
          className={`posts-media-check posts-media-${check.verdict}`}
          data-testid={`media-check-${check.platform}`}
        >
          <span aria-hidden="true">
            {check.verdict === 'ok' ? '✓' : check.verdict === 'unknown' ? '!' : '✕'}
          </span>{' '}
          {postingPlatforms[check.platform].label} needs {check.needs}: {verdictText(check, usable, refused)}
        </li>
      ))}
    </ul>
  );
}
