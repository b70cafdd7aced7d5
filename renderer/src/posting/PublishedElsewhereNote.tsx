import type { PublishedPosts } from '../../../shared/api/analytics.js';
import { formatDateTime } from '../format.js';

const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`;

/**
 * Issue #41.4: Analytics measures every post the provider published, this list only those this
 * bridge or the CRM sent. When the provider holds others, the list says so, so the two pages'
 * numbers add up.
 */
export function PublishedElsewhereNote({ published }: { published: PublishedPosts | null | undefined }) {
  if (!published || published.elsewhere.length === 0) return null;
  const elsewhere = published.elsewhere.length;
  return (
    <p className="small muted posts-published-note" data-testid="published-elsewhere-note">
      The posting provider had {posts(published.atProvider)} published
      {published.asOf ? ` at the last collection (${formatDateTime(published.asOf)})` : ''}:{' '}
      {published.onPosts} {published.onPosts === 1 ? 'is' : 'are'} listed here, and {posts(elsewhere)}{' '}
      {elsewhere === 1 ? 'was' : 'were'} published there outside this bridge and the CRM. Analytics measures
      all {published.atProvider}.
    </p>
  );
}
