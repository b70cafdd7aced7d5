import { useState } from 'react';
import { ErrorText, Spinner } from '../components/States.js';
import { useDeleteLivePost } from './api.js';
import { platformLabel } from './status.js';

/**
 * A post already live on its platforms (DESIGN §6.9): Cancel is no longer possible, only a
 * delete the operator asks for by name — it takes the post down where the public sees it, so
 * it says so and asks once more, in the destructive style.
 */
export function LiveDelete({ postsvcId, platforms }: { postsvcId: string; platforms: readonly string[] }) {
  const remove = useDeleteLivePost();
  const [confirming, setConfirming] = useState(false);
  const where = platforms.map(platformLabel).join(', ');
  return (
    <span className="posts-live" data-testid="live-delete">
      <span className="posts-live-warning" role="status">
        Live on {where}: it is already published, so it cannot be cancelled.
      </span>
      {confirming ? (
        <span className="posts-confirm">
          <button
            type="button"
            className="button button-small button-danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate(postsvcId, { onSettled: () => setConfirming(false) })}
          >
            {remove.isPending ? <Spinner label="Deleting…" /> : `Delete the live post from ${where}`}
          </button>
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={() => setConfirming(false)}
          >
            Keep it live
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="button button-small posts-danger"
          onClick={() => setConfirming(true)}
        >
          Delete from {where}…
        </button>
      )}
      {remove.error ? (
        <span className="cell-error" role="alert">
          <ErrorText error={remove.error} />
        </span>
      ) : null}
    </span>
  );
}
