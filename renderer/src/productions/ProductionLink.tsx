import { productionHash } from './production-hash.js';

/**
 * The small "Episode 12 →" link back to a production's page (issue #42.1), on a post's row, a
 * clip card, a take, a guest and a broadcast; nothing when the item is not linked.
 */
export function ProductionLink({ id, name }: { id: string | null; name?: string | null }) {
  if (!id) return null;
  return (
    <a className="production-link small" href={productionHash(id)} data-testid="production-link">
      {name ?? 'Its production'} →
    </a>
  );
}
