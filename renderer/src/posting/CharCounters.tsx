import { postingPlatforms } from '../../../shared/platforms.js';
import type { LengthCheck } from '../../../shared/post-rules.js';

/** Characters per chosen platform while typing, counted as the bridge counts them (shared rules). */
export function CharCounters({ lengths }: { lengths: readonly LengthCheck[] }) {
  return (
    <div className="posts-counters" aria-live="polite" data-testid="char-counters">
      {lengths.length === 0 ? (
        <span className="muted small">Choose at least one platform.</span>
      ) : (
        lengths.map((check) => (
          <span
            key={check.platform}
            className={`posts-counter ${check.over ? 'posts-counter-over' : check.count > check.limit * 0.9 ? 'posts-counter-near' : ''}`}
            data-testid={`counter-${check.platform}`}
            title={
              postingPlatforms[check.platform].weightedCount
                ? 'Counted like the platform: a link is 23, wide characters 2'
                : undefined
            }
          >
            {postingPlatforms[check.platform].label}{' '}
            <strong>
              {check.count.toLocaleString()} / {check.limit.toLocaleString()}
            </strong>
          </span>
        ))
      )}
    </div>
  );
}
