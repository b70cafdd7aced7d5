import { postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import { platformPreview } from '../../../shared/post-rules.js';

/** Characters of the text shown before the cut. */
const KEPT_BEFORE_CUT = 90;

/**
 * How each chosen platform counts the text and where its limit cuts it (microblog like the
 * platform: a link is 23, wide characters 2). The part past a limit is marked: the bridge
 * refuses the post until it fits.
 */
export function PlatformPreviews({ text, platforms }: { text: string; platforms: readonly PlatformKey[] }) {
  if (text.trim() === '' || platforms.length === 0) return null;
  return (
    <div className="posts-previews" data-testid="platform-previews">
      {platforms.map((platform) => {
        const preview = platformPreview(platform, text);
        const over = preview.count - preview.limit;
        // Where it is cut is what matters: a long text is shown from shortly before the cut.
        const kept =
          preview.cut && preview.kept.length > KEPT_BEFORE_CUT
            ? `…${preview.kept.slice(-KEPT_BEFORE_CUT)}`
            : preview.kept;
        return (
          <figure
            key={platform}
            className={`posts-preview ${preview.cut ? 'posts-preview-over' : ''}`}
            data-testid={`preview-${platform}`}
          >
            <figcaption>
              <strong>{postingPlatforms[platform].label}</strong>
              <span
                className="muted small"
                title={
                  postingPlatforms[platform].weightedCount
                    ? 'Counted like the platform: a link is 23, wide characters 2'
                    : 'Characters'
                }
              >
                {preview.count.toLocaleString()} / {preview.limit.toLocaleString()}
              </span>
            </figcaption>
            <p className="posts-preview-text">
              {kept}
              {preview.cut ? (
                <mark className="posts-preview-cut" title="Past the limit">
                  {preview.cut}
                </mark>
              ) : null}
            </p>
            {preview.cut ? (
              <p className="small posts-preview-note">
                {over.toLocaleString()} over the limit: the marked part does not fit.
              </p>
            ) : null}
          </figure>
        );
      })}
    </div>
  );
}
