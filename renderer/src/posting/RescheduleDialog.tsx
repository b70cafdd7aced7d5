import { useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { PostView } from '../../../shared/api/posting.js';
import type { PlatformKey } from '../../../shared/platforms.js';
import { reviewPost } from '../../../shared/post-rules.js';
import { ErrorText, Spinner } from '../components/States.js';
import { useNow } from '../format.js';
import { useReschedulePost, useReschedulePreview, type RescheduleInput } from './api.js';
import { useDebouncedValue } from '../use-debounced-value.js';
import { ChangeCost, changeLabel } from './ChangeCost.js';
import { ApiError } from '../api/transport/client.js';
import { postFormNotes } from './post-form-notes.js';
import { fieldNames, recordedErrorWords, refusalWords } from './post-words.js';
import { anHourAhead, splitLines, type PostFormValues } from './post-form-values.js';
import { PostForm } from './PostForm.js';
import { platformLabel } from './status.js';
import { fromLocalInput, toLocalInput } from './time.js';

/** Its own time if still ahead (a scheduled post: always), else the next quarter hour an hour from now. */
function initialWhen(post: PostView): string {
  if (post.publishAt && post.status === 'scheduled') return toLocalInput(new Date(post.publishAt));
  if (post.publishAt && Date.parse(post.publishAt) > Date.now() + 10 * 60_000)
    return toLocalInput(new Date(post.publishAt));
  return anHourAhead();
}

/** The main button names where it goes; past two platforms it counts them (the list is above it). */
function rescheduleLabel(platforms: readonly string[]): string {
  if (platforms.length === 0) return 'Reschedule';
  if (platforms.length <= 2) return `Reschedule on ${platforms.map(platformLabel).join(' and ')}`;
  return `Reschedule on ${platforms.length} platforms`;
}

/**
 * Edit a post: new text, media and time (a dashboard post also new platforms; one from the CRM
 * keeps its platform and the edit is written back to its record). A post still scheduled is
 * changed in place (issue #40.1): what the change does and costs is asked of the bridge
 * (reschedule-preview) and said before it is made — a move, or a cancel and a create. A failed or
 * cancelled post (issue #14.3) stays as it is and a new one is sent; for a partly failed post only
 * the platforms it did not go out on can be chosen.
 */
export function RescheduleDialog({ post, onClose }: { post: PostView; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fromCrm = post.source === 'crm';
  const scheduled = post.status === 'scheduled';
  const live = post.platformStates
    .filter((s) => s.status === 'scheduled' || s.status === 'published')
    .map((s) => s.platform as PlatformKey);
  const failures = post.platformStates.filter((s) => s.status === 'failed' && s.error);
  const [values, setValues] = useState<PostFormValues>(() => ({
    text: post.post,
    platforms: (live.length > 0 && !scheduled
      ? post.platformStates.filter((s) => s.status === 'failed').map((s) => s.platform)
      : post.platforms) as PlatformKey[],
    hashtags: '',
    media: post.mediaUrls.join('\n'),
    when: initialWhen(post),
    now: false,
  }));
  const reschedule = useReschedulePost();
  const now = useNow(30_000);
  const { text, platforms } = values;

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const whenDate = useMemo(() => fromLocalInput(values.when), [values.when]);
  const mediaUrls = splitLines(values.media);
  const review = reviewPost(
    { post: text, platforms, mediaUrls, scheduleDate: whenDate?.toISOString() ?? values.when },
    { now: new Date(now) },
  );
  const refusal = reschedule.error instanceof ApiError ? refusalWords(reschedule.error) : [];
  // At their field, in words (issue #30.4).
  const notes = postFormNotes({
    refusal,
    errors: review.errors,
    warnings: review.warnings,
    at: whenDate?.toISOString(),
  });
  const refusedAt = [...new Set(refusal.flatMap((r) => (r.field ? [fieldNames[r.field]] : [])))];
  const target = fromCrm ? { socialPostId: post.socialPostId! } : { ledgerId: post.ledgerId! };
  const body: RescheduleInput | null = whenDate
    ? {
        ...target,
        post: text,
        scheduleDate: whenDate.toISOString(),
        mediaUrls,
        hashtags: [],
        ...(fromCrm ? {} : { platforms }),
      }
    : null;
  // What the change would do and cost, asked again as the operator stops typing (a scheduled post only).
  const asked = useDebouncedValue(scheduled && review.errors.length === 0 ? body : null, 400);
  const change = useReschedulePreview(asked);
  const settled = asked !== null && JSON.stringify(asked) === JSON.stringify(body);
  const cost = settled && change.data ? change.data : null;
  const unchanged =
    scheduled &&
    text === post.post &&
    sameSet(platforms, post.platforms) &&
    mediaUrls.join('\n') === post.mediaUrls.join('\n') &&
    whenDate?.getTime() === Date.parse(post.publishAt ?? '');
  const blocked =
    review.errors.length > 0 ||
    reschedule.isPending ||
    (scheduled && (unchanged || cost === null || cost.how === 'not-moved'));

  function edit(change: Partial<PostFormValues>) {
    setValues((form) => ({ ...form, ...change }));
    // A platform chosen or not keeps the last answer on screen; a value edited clears it.
    if (change.platforms === undefined) reschedule.reset();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blocked || !body) return;
    reschedule.mutate(body, { onSuccess: onClose });
  }

  return (
    <dialog
      ref={dialog}
      className="posts-dialog"
      aria-labelledby="reschedule-title"
      data-testid="reschedule-dialog"
      onClose={onClose}
    >
      <form className="posts-composer posts-dialog-form" onSubmit={submit} noValidate>
        <h2 id="reschedule-title" className="posts-dialog-title">
          {scheduled ? 'Edit scheduled post' : 'Edit and reschedule'}
        </h2>
        {/* The form scrolls between the title and the buttons: the buttons never leave the screen. */}
        <div className="posts-dialog-body">
          <p className="muted small">
            {scheduled
              ? 'A new time moves it; new text, media or platforms replace it at the provider. What a change costs is said below before anything is done.'
              : post.status === 'cancelled'
                ? 'This post was cancelled. Rescheduling sends it again as a new post.'
                : 'The failed attempt stays in the history as it is; rescheduling sends a new post.'}
            {fromCrm ? ' The changes are written back to its CRM record.' : ''}
          </p>
          {failures.length > 0 ? (
            <ul className="posts-dialog-failures" data-testid="reschedule-failures">
              {failures.map((f) => (
                <li key={f.platform}>
                  <strong>{platformLabel(f.platform)}</strong> refused it:{' '}
                  {f.error === null ? null : recordedErrorWords(f.error)}
                </li>
              ))}
            </ul>
          ) : null}

          <PostForm
            form="reschedule"
            layout="dialog"
            values={values}
            onChange={edit}
            notes={notes}
            lockedPlatforms={scheduled ? [] : live}
            fromCrm={fromCrm}
          />
          {scheduled ? (
            <ChangeCost
              preview={cost}
              pending={asked !== null && !settled ? true : change.isFetching}
              error={change.error}
              unchanged={unchanged}
            />
          ) : null}
          {reschedule.isError ? (
            <div className="banner banner-bad" role="alert">
              <div>
                <strong>{scheduled ? 'Not changed.' : 'Not rescheduled.'}</strong>{' '}
                {refusedAt.length > 0 ? (
                  `The bridge refused it: see ${refusedAt.join(' and ')} above.`
                ) : (
                  <ErrorText error={reschedule.error} />
                )}
              </div>
            </div>
          ) : null}
        </div>

        <div className="posts-dialog-actions">
          <button type="button" className="button button-ghost" onClick={() => dialog.current?.close()}>
            Keep as it is
          </button>
          <button type="submit" className="button button-primary button-wrap" disabled={blocked}>
            {reschedule.isPending ? (
              <Spinner label="Sending…" />
            ) : scheduled ? (
              changeLabel(cost, unchanged)
            ) : (
              rescheduleLabel(platforms)
            )}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return [...a].sort().join() === [...b].sort().join();
}
