import { useState } from 'react';
import { columnLabels } from '../components/column-labels.js';
import type { PostView, PostViewStatus } from '../../../shared/api/posting.js';
import { EmptyState, ErrorText, Spinner } from '../components/States.js';
import { LocalTime } from '../components/LocalTime.js';
import { StatusPill } from '../components/StatusPill.js';
import { useNow } from '../format.js';
import { addressedItemProps, useAddressedItem } from '../components/addressed-item.js';
import { ProductionLink } from '../productions/ProductionLink.js';
import { ApiError } from '../api/transport/client.js';
import { useCancelPost, useCheckAgain, usePostNow, useRetryPost } from './api.js';
import { LiveDelete } from './LiveDelete.js';
import { RescheduleDialog } from './RescheduleDialog.js';
import { recordedErrorWords, refusalWords } from './post-words.js';
import {
  cancellable,
  confirmationHelp,
  confirmationLabel,
  platformLabel,
  statusHelp,
  statusLabel,
  statusTone,
} from './status.js';

type Filter = 'all' | 'scheduled' | 'published' | 'failed' | 'cancelled';
const filters: { value: Filter; label: string; matches: (s: PostViewStatus) => boolean }[] = [
  { value: 'all', label: 'All', matches: () => true },
  {
    value: 'scheduled',
    label: 'Scheduled',
    matches: (s) => s === 'scheduled' || s === 'sending' || s === 'checking',
  },
  { value: 'published', label: 'Published', matches: (s) => s === 'published' },
  { value: 'failed', label: 'Failed', matches: (s) => s === 'failed' || s === 'partial' },
  { value: 'cancelled', label: 'Cancelled', matches: (s) => s === 'cancelled' || s === 'draft' },
];

export { platformLabel };

/** Scheduled, published and failed posts, newest first, with cancel and retry. */
export function PostList({ posts }: { posts: PostView[] }) {
  const [filter, setFilter] = useState<Filter>('all');
  const shown = posts.filter((post) => filters.find((f) => f.value === filter)!.matches(post.status));
  return (
    <>
      <div className="chips posts-filter" role="group" aria-label="Filter by status">
        {filters.map((f) => {
          const count = posts.filter((post) => f.matches(post.status)).length;
          return (
            <button
              key={f.value}
              type="button"
              className={`chip ${filter === f.value ? 'chip-active' : ''}`}
              aria-pressed={filter === f.value}
              onClick={() => setFilter(f.value)}
            >
              {f.label} <span className="chip-count">{count}</span>
            </button>
          );
        })}
      </div>
      {shown.length === 0 ? (
        <EmptyState title={posts.length === 0 ? 'No posts yet' : 'No posts with this status'}>
          {posts.length === 0
            ? 'Posts scheduled here or from the CRM (SocialPost records set to Scheduled) appear in this list.'
            : 'Choose another filter to see the rest.'}
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table ref={columnLabels} className="table posts-table" data-testid="post-list">
            <thead>
              <tr>
                <th>When</th>
                <th>Platforms</th>
                <th>Post</th>
                <th>Status</th>
                <th>From</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {shown.map((post) => (
                <PostRow key={post.key} post={post} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function PostRow({ post }: { post: PostView }) {
  const cancel = useCancelPost();
  const retry = useRetryPost();
  const postNow = usePostNow();
  const checkAgain = useCheckAgain();
  // The provider had already published it: Cancel answered 409 and nothing was deleted (DESIGN §6.9).
  const liveRefusal =
    cancel.error instanceof ApiError && cancel.error.code === 'ALREADY_PUBLISHED'
      ? ((cancel.error.details as { platforms?: string[] } | undefined)?.platforms ?? post.platforms)
      : null;
  const heldLive = post.liveHold !== null && post.postsvcId !== null;
  const livePlatforms = liveRefusal ?? (heldLive ? post.platforms : null);
  const [confirming, setConfirming] = useState(false);
  const [confirmingNow, setConfirmingNow] = useState(false);
  const [editing, setEditing] = useState(false);
  const now = useNow(30_000);
  const toCancel = cancellable(post);
  const canCancel =
    (post.status === 'scheduled' || post.status === 'partial') &&
    toCancel.ids.length > 0 &&
    livePlatforms === null;
  const cancelWhere = toCancel.platforms.map(platformLabel).join(', ');
  const known = post.socialPostId !== null || post.ledgerId !== null;
  const failed = post.status === 'failed' || post.status === 'partial';
  // A time that has passed needs a new one: only an edit gives it.
  const due = post.publishAt !== null && Date.parse(post.publishAt) <= now;
  const canRetry = failed && known && !due;
  // A post still scheduled is edited in place while it can still be changed (2 min from its time, DESIGN §6.9).
  const canEditScheduled =
    post.status === 'scheduled' &&
    known &&
    livePlatforms === null &&
    post.liveHold === null &&
    post.publishAt !== null &&
    Date.parse(post.publishAt) - now > 2 * 60_000;
  const canEdit = ((failed || post.status === 'cancelled') && known) || canEditScheduled;
  // A CRM post whose time passed (e.g. too late to go out by itself): Post now or Reschedule (DESIGN §6.9).
  const canPostNow = post.status === 'failed' && due && post.socialPostId !== null;
  const nowWhere = post.platforms.map(platformLabel).join(', ');
  const failure = (liveRefusal ? null : cancel.error) ?? retry.error ?? checkAgain.error ?? postNow.error;
  const postUrls = post.platformStates.filter((state) => state.postUrl);
  const mixed = new Set(post.platformStates.map((s) => s.status)).size > 1;
  const platformFailures = post.status === 'partial' ? post.platformStates.filter((s) => s.error) : [];
  // Reached from a production's page (`#/posts?post=<SocialPost id>`): this row is the one meant.
  // The production page links a CRM post by its record, a dashboard post by its key (`api:<id>`).
  const addressed = useAddressedItem('post');
  const focused = addressed === post.key || (post.socialPostId !== null && addressed === post.socialPostId);
  return (
    <tr
      {...addressedItemProps(focused)}
      data-testid={`post-row-${post.key}`}
      className={`posts-row-${post.status}${focused ? ' posts-row-focused' : ''}`}
    >
      <td className="posts-when-cell">
        {post.publishAt ? <LocalTime iso={post.publishAt} /> : <span className="muted">—</span>}
      </td>
      <td>
        {mixed ? (
          <span className="posts-platform-states" data-testid="platform-states">
            {post.platformStates.map((state) => (
              <span
                key={state.platform}
                className="posts-platform-state"
                data-testid={`platform-state-${state.platform}`}
              >
                {platformLabel(state.platform)}{' '}
                <StatusPill tone={statusTone[state.status]}>{statusLabel[state.status]}</StatusPill>
              </span>
            ))}
          </span>
        ) : (
          post.platforms.map(platformLabel).join(', ') || '—'
        )}
      </td>
      <td className="posts-text-cell">
        {post.name ? <span className="posts-name">{post.name}</span> : null}
        <ProductionLink id={post.contentProductionId} name={post.contentProductionName} />
        <span className="posts-excerpt" title={post.post}>
          {post.post || <span className="muted">(no text)</span>}
        </span>
        {post.error ? <span className="cell-error">{recordedErrorWords(post.error)}</span> : null}
        {platformFailures.map((state) => (
          <span key={state.platform} className="cell-error">
            {platformLabel(state.platform)}: {state.error === null ? null : recordedErrorWords(state.error)}
          </span>
        ))}
        {post.liveHold === 'crm-deleted' ? (
          <span className="posts-hold" data-testid="live-hold">
            CRM record deleted, still live
          </span>
        ) : null}
        {post.liveHold === 'waiting-operator' ? (
          <span className="posts-hold" data-testid="live-hold">
            Set back to Scheduled in the CRM while live: nothing is sent or cancelled until you decide
          </span>
        ) : null}
        {postUrls.map((state) => (
          <a
            key={state.platform}
            className="posts-url small"
            href={state.postUrl!}
            target="_blank"
            rel="noreferrer"
          >
            View on {platformLabel(state.platform)}
          </a>
        ))}
        {post.status === 'failed' ? (
          <span className="posts-failed-note small" data-testid="failed-note">
            {failedNote({ known, due, canPostNow, canRetry })}
          </span>
        ) : null}
        {post.status === 'partial' && due && known ? (
          <span className="muted small">Its time has passed: edit it to give it a new one.</span>
        ) : null}
        {failure ? (
          <span className="cell-error" role="alert">
            <FailureText error={failure} />
          </span>
        ) : null}
      </td>
      <td>
        {post.confirmation ? (
          <span title={confirmationHelp[post.confirmation]} data-testid="post-confirmation">
            <StatusPill tone="warn">{confirmationLabel[post.confirmation]}</StatusPill>
          </span>
        ) : (
          <span title={statusHelp[post.status]}>
            <StatusPill tone={statusTone[post.status]}>{statusLabel[post.status]}</StatusPill>
          </span>
        )}
      </td>
      {/* Ids are for integrators: in the tooltip (and the JSON API), not in the operator's text (issue #14.8). */}
      <td className="small" data-postsvc-id={post.postsvcId ?? undefined}>
        {post.source === 'crm' ? (
          <span title={withProviderId(`SocialPost ${post.socialPostId}`, post.postsvcId)}>CRM</span>
        ) : (
          <span title={withProviderId(`ledger ${post.ledgerId}`, post.postsvcId)}>Bridge</span>
        )}
      </td>
      <td className="cell-actions">
        {canCancel && !confirming ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => setConfirming(true)}
            title={post.status === 'partial' ? `Cancel on ${cancelWhere}: what went out stays` : undefined}
          >
            {post.status === 'partial' ? 'Cancel the rest' : 'Cancel'}
          </button>
        ) : null}
        {canCancel && confirming ? (
          <span className="posts-confirm">
            <button
              type="button"
              className="button button-small posts-danger"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate(toCancel.ids, { onSettled: () => setConfirming(false) })}
            >
              {cancel.isPending ? (
                <Spinner label="Cancelling…" />
              ) : post.status === 'partial' ? (
                `Cancel on ${cancelWhere}`
              ) : (
                'Cancel post'
              )}
            </button>
            <button
              type="button"
              className="button button-small button-ghost"
              onClick={() => setConfirming(false)}
            >
              Keep
            </button>
          </span>
        ) : null}
        {livePlatforms && post.postsvcId ? (
          <LiveDelete postsvcId={post.postsvcId} platforms={livePlatforms} />
        ) : null}
        {post.confirmation === 'unconfirmed' && post.ledgerId !== null ? (
          <button
            type="button"
            className="button button-small"
            disabled={checkAgain.isPending}
            onClick={() => checkAgain.mutate(post.ledgerId!)}
          >
            {checkAgain.isPending ? <Spinner label="Checking…" /> : 'Check again'}
          </button>
        ) : null}
        {canRetry ? (
          <button
            type="button"
            className="button button-small"
            disabled={retry.isPending}
            onClick={() =>
              retry.mutate(
                post.socialPostId !== null
                  ? { socialPostId: post.socialPostId }
                  : { ledgerId: post.ledgerId! },
              )
            }
          >
            {retry.isPending ? (
              <Spinner label="Retrying…" />
            ) : post.status === 'partial' ? (
              'Retry failed'
            ) : (
              'Retry'
            )}
          </button>
        ) : null}
        {canPostNow && !confirmingNow ? (
          <button type="button" className="button button-small" onClick={() => setConfirmingNow(true)}>
            Post now
          </button>
        ) : null}
        {canPostNow && confirmingNow ? (
          // A public action: asked once, naming where it goes (DESIGN §6.8).
          <span className="posts-confirm posts-confirm-stacked">
            <button
              type="button"
              className="button button-small"
              disabled={postNow.isPending}
              onClick={() => postNow.mutate(post.socialPostId!, { onSettled: () => setConfirmingNow(false) })}
            >
              {postNow.isPending ? <Spinner label="Posting…" /> : `Publish now on ${nowWhere}`}
            </button>
            <button
              type="button"
              className="button button-small button-ghost"
              onClick={() => setConfirmingNow(false)}
            >
              Not now
            </button>
          </span>
        ) : null}
        {canEdit && !confirmingNow ? (
          <button type="button" className="button button-small" onClick={() => setEditing(true)}>
            {canPostNow ? 'Reschedule…' : 'Edit…'}
          </button>
        ) : null}
        {editing ? <RescheduleDialog post={post} onClose={() => setEditing(false)} /> : null}
      </td>
    </tr>
  );
}

/**
 * A failed post's one outcome, said once (issue #40.3): it stays failed until the operator acts,
 * and what each action does.
 */
function failedNote(post: { known: boolean; due: boolean; canPostNow: boolean; canRetry: boolean }): string {
  const head = 'Failed — will not retry by itself.';
  if (!post.known) return `${head} It was not sent through this bridge.`;
  if (post.canPostNow) return `${head} Its time has passed: post it now or reschedule it.`;
  if (post.due) return `${head} Its time has passed: edit it to give it a new one.`;
  if (post.canRetry) return `${head} Retry sends it once more as it is; Edit… changes it first.`;
  return `${head} Edit… changes it and sends it again.`;
}

/** A source cell's tooltip: where the post came from and, once it has one, its post at the provider. */
function withProviderId(source: string, postsvcId: string | null | undefined): string {
  return postsvcId ? `${source} · provider post ${postsvcId}` : source;
}

/** A row action's failure: a refusal of the post's values in words (a retry past its time), else as any error. */
function FailureText({ error }: { error: unknown }) {
  const refused = error instanceof ApiError ? refusalWords(error) : [];
  if (refused.length === 0) return <ErrorText error={error} />;
  return <>{refused.map((words) => words.text).join(' ')}</>;
}
