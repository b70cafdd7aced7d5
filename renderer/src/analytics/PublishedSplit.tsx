import type { PublishedPosts } from '../../../shared/api/analytics.js';

const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`;

/**
 * Issue #41.4: which of the measured posts Posts lists. The provider's history also holds posts
 * published there by other means (its own app, another tool): measured here, not on Posts.
 */
export function PublishedSplit({ published }: { published: PublishedPosts | null }) {
  if (!published || published.atProvider === 0) return null;
  const elsewhere = published.elsewhere.length;
  return (
    <p className="small muted last-run-split" data-testid="published-split">
      {elsewhere === 0
        ? `All ${posts(published.atProvider)} published at the provider are on Posts.`
        : `${published.onPosts} of them on Posts (sent by this bridge or the CRM); ${posts(elsewhere)} published at the provider outside them, measured here but not listed on Posts.`}
    </p>
  );
}
