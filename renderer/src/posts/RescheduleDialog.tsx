import { useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { PostView } from '../../../shared/api/posting.js';
import { platformKeys, postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import { reviewPost } from '../../../shared/post-rules.js';
import { ErrorText, Spinner } from '../components/States.js';
import { useNow } from '../format.js';
import { useReschedulePost } from './api.js';
import { PostChecks } from './PostChecks.js';
import { isMediaIssue, MediaChecks } from './MediaChecks.js';
import { ApiError } from '../api/transport/client.js';
import { notesAt, notesForField, type FieldNote } from './FieldNotes.js';
import { fieldNames, issueWords, refusalWords, warningWords, type PostField } from './post-words.js';
import { platformLabel } from './status.js';
import { formatLocal, formatUtc, timeZoneName } from '../format.js';
import { fromLocalInput, toLocalInput } from './time.js';

const splitLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** Its own time if still ahead, else the next quarter hour an hour from now. */
function initialWhen(post: PostView): string {
  if (post.publishAt && Date.parse(post.publishAt) > Date.now() + 10 * 60_000)
    return toLocalInput(new Date(post.publishAt));
  const inAnHour = new Date(Date.now() + 60 * 60_000);
  inAnHour.setMinutes(Math.ceil(inAnHour.getMinutes() / 15) * 15, 0, 0);
  return toLocalInput(inAnHour);
}

/** The main button names where it goes; past two platforms it counts them (the list is above it). */
function rescheduleLabel(platforms: readonly string[]): string {
  if (platforms.length === 0) return 'Reschedule';
  if (platforms.length <= 2) return `Reschedule on ${platforms.map(platformLabel).join(' and ')}`;
  return `Reschedule on ${platforms.length} platforms`;
}

/**
 * Edit and reschedule a failed or cancelled post (issue #14.3): new text, media and time (a
 * dashboard post also new platforms; one from the CRM keeps its platform and the edit is
 * written back to its record). The failed post stays as it is; this sends a new one. For a
 * partly failed post only the platforms it did not go out on can be chosen.
 */
export function RescheduleDialog({ post, onClose }: { post: PostView; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fromCrm = post.source === 'crm';
  const live = post.platformStates
    .filter((s) => s.status === 'scheduled' || s.status === 'published')
    .map((s) => s.platform as PlatformKey);
  const failures = post.platformStates.filter((s) => s.status === 'failed' && s.error);
  const [text, setText] = useState(post.post);
  const [platforms, setPlatforms] = useState<PlatformKey[]>(
    (live.length > 0
      ? post.platformStates.filter((s) => s.status === 'failed').map((s) => s.platform)
      : post.platforms) as PlatformKey[],
  );
  const [mediaText, setMediaText] = useState(post.mediaUrls.join('\n'));
  const [when, setWhen] = useState(() => initialWhen(post));
  const reschedule = useReschedulePost();
  const now = useNow(30_000);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const whenDate = useMemo(() => fromLocalInput(when), [when]);
  const mediaUrls = splitLines(mediaText);
  const review = reviewPost(
    { post: text, platforms, mediaUrls, scheduleDate: whenDate?.toISOString() ?? when },
    { now: new Date(now) },
  );
  const refusal = reschedule.error instanceof ApiError ? refusalWords(reschedule.error) : [];
  // At their field, in words (issue #30.4); a platform's media rule is said by MediaChecks.
  const notes: FieldNote[] = [
    ...refusal.map((words) => ({ ...words, tone: 'error' as const })),
    ...review.errors
      .filter((e) => e.code !== 'INVALID_MEDIA')
      .map((issue) => ({ ...issueWords(issue), tone: 'error' as const })),
    ...review.warnings
      .filter((w) => !isMediaIssue(w))
      .map((w) => ({ ...warningWords(w, whenDate?.toISOString()), tone: 'warn' as const })),
  ];
  const at = (field: PostField) => notesForField('reschedule', notes, field);
  const atPost = at('post');
  const atPlatforms = at('platforms');
  const atMedia = at('mediaUrls');
  const atWhen = at('scheduleDate');
  const elsewhere = notesAt(notes, null);
  const refusedAt = [...new Set(refusal.flatMap((r) => (r.field ? [fieldNames[r.field]] : [])))];
  const blocked = review.errors.length > 0 || reschedule.isPending;
  const where = platforms.map(platformLabel).join(', ');

  function toggle(platform: PlatformKey) {
    setPlatforms((current) =>
      current.includes(platform) ? current.filter((p) => p !== platform) : [...current, platform],
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blocked || !whenDate) return;
    const target = fromCrm ? { socialPostId: post.socialPostId! } : { ledgerId: post.ledgerId! };
    reschedule.mutate(
      {
        ...target,
        post: text,
        scheduleDate: whenDate.toISOString(),
        mediaUrls,
        ...(fromCrm ? {} : { platforms }),
      },
      { onSuccess: onClose },
    );
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
          Edit and reschedule
        </h2>
        {/* The form scrolls between the title and the buttons: the buttons never leave the screen. */}
        <div className="posts-dialog-body">
          <p className="muted small">
            {post.status === 'cancelled'
              ? 'This post was cancelled. Rescheduling sends it again as a new post.'
              : 'The failed attempt stays in the history as it is; rescheduling sends a new post.'}
            {fromCrm ? ' The changes are written back to its CRM record.' : ''}
          </p>
          {failures.length > 0 ? (
            <ul className="posts-dialog-failures" data-testid="reschedule-failures">
              {failures.map((f) => (
                <li key={f.platform}>
                  <strong>{platformLabel(f.platform)}</strong> refused it: {f.error}
                </li>
              ))}
            </ul>
          ) : null}

          <label className="field-label" htmlFor="reschedule-text">
            Post
          </label>
          <textarea
            id="reschedule-text"
            className="input posts-text"
            rows={4}
            value={text}
            aria-describedby={atPost.describedBy}
            onChange={(event) => {
              setText(event.target.value);
              reschedule.reset();
            }}
          />
          {atPost.notes}

          <span className="field-label">Platforms</span>
          {fromCrm ? (
            <p className="small">
              {where} <span className="muted">(a post from the CRM keeps its platform)</span>
            </p>
          ) : (
            <div className="chips" role="group" aria-label="Platforms">
              {platformKeys.map((platform) => (
                <button
                  key={platform}
                  type="button"
                  className={`chip ${platforms.includes(platform) ? 'chip-active' : ''}`}
                  aria-pressed={platforms.includes(platform)}
                  disabled={live.includes(platform)}
                  title={live.includes(platform) ? 'Already out or queued on this platform' : undefined}
                  onClick={() => toggle(platform)}
                >
                  {postingPlatforms[platform].label}
                </button>
              ))}
            </div>
          )}
          {atPlatforms.notes}

          <label className="field-label" htmlFor="reschedule-media">
            {fromCrm ? 'Media link' : 'Media links (one per line)'}
          </label>
          <textarea
            id="reschedule-media"
            className="input mono posts-media"
            rows={fromCrm ? 1 : 2}
            value={mediaText}
            aria-describedby={atMedia.describedBy}
            placeholder="https://cdn.example.com/cover.jpg"
            onChange={(event) => {
              setMediaText(event.target.value);
              reschedule.reset();
            }}
          />
          <MediaChecks platforms={platforms} mediaUrls={mediaUrls} />
          {atMedia.notes}

          <label className="field-label" htmlFor="reschedule-when">
            Publish at ({timeZoneName()})
          </label>
          <input
            id="reschedule-when"
            type="datetime-local"
            className="input posts-datetime"
            value={when}
            aria-describedby={atWhen.describedBy}
            onChange={(event) => {
              setWhen(event.target.value);
              reschedule.reset();
            }}
          />
          {whenDate ? (
            <p className="small posts-zone">
              {formatLocal(whenDate.toISOString())} ={' '}
              <span className="mono">{formatUtc(whenDate.toISOString())}</span>
            </p>
          ) : null}

          {atWhen.notes}

          <PostChecks
            errors={elsewhere.filter((n) => n.tone === 'error').map((n) => n.text)}
            warnings={elsewhere.filter((n) => n.tone === 'warn').map((n) => n.text)}
            testId="reschedule-checks"
          />
          {reschedule.isError ? (
            <div className="banner banner-bad" role="alert">
              <div>
                <strong>Not rescheduled.</strong>{' '}
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
            {reschedule.isPending ? <Spinner label="Sending…" /> : rescheduleLabel(platforms)}
          </button>
        </div>
      </form>
    </dialog>
  );
}
