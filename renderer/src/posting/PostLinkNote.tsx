import { ProductionLink } from '../productions/ProductionLink.js';
import { useProduction } from '../productions/api.js';
import type { PostLinks } from './post-form-values.js';

/** "From clip … of <production>": what the post being composed links to (issue #44.2); nothing when unlinked. */
export function PostLinkNote({ links }: { links: PostLinks }) {
  const { contentProductionId, clipId } = links;
  if (!contentProductionId && !clipId) return null;
  return (
    <p className="small posts-link-note" data-testid="post-links">
      {clipId ? (
        <>
          From clip <span className="mono">{clipId}</span>
        </>
      ) : (
        'For'
      )}
      {contentProductionId ? (
        <>
          {' of '}
          <ProductionName id={contentProductionId} />
        </>
      ) : null}
      <span className="muted"> · the post links to {contentProductionId ? 'them' : 'it'}</span>
    </p>
  );
}

function ProductionName({ id }: { id: string }) {
  const production = useProduction(id, { poll: false });
  return <ProductionLink id={id} name={production.data?.production.name ?? 'its production'} />;
}
