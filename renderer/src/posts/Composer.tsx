import { useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { QuotaSnapshot } from '../../../shared/api/posting.js';
import { platformKeys, postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import { reviewPost } from '../../../shared/post-rules.js';
import { ApiError, errorMessage } from '../api/transport/client.js';
import { Panel } from '../components/Panel.js';
import { ErrorText, Spinner } from '../components/States.js';
import { useNow } from '../format.js';
import { useDebouncedValue } from '../use-debounced-value.js';
import { isMediaIssue, MediaChecks } from './MediaChecks.js';
import { notesAt, notesForField, type FieldNote } from './FieldNotes.js';
import { fieldNames, issueWords, refusalWords, warningWords, type PostField } from './post-words.js';
import { PlatformPreviews } from './PlatformPreviews.js';
import { PostChecks } from './PostChecks.js';
import { usePreview, useSchedulePost, type PreviewInput, type Scheduled } from './api.js';
import { formatLocal, formatUtc, timeZoneName } from '../format.js';
import { fromLocalInput, toLocalInput } from './time.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';

const newKey = () => `composer-${crypto.randomUUID()}`;

function defaultWhen(): string {
  const inAnHour = new Date(Date.now() + 60 * 60_000);
  inAnHour.setMinutes(Math.ceil(inAnHour.getMinutes() / 15) * 15, 0, 0);
  return toLocalInput(inAnHour);
}

const splitTags = (text: string) => text.split(/[\s,]+/).filter((tag) => tag !== '');
const splitLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * The post form: text, platforms, hashtags, media, publish now or at a time in the operator's
 * zone (shown beside UTC). Counts characters per platform as the bridge does (shared rules,
 * twitter-text for microblog) while typing; spacing warnings come from the bridge's ledger.
 */
export function Composer({ quota }: { quota: QuotaSnapshot | undefined }) {
  const [text, setText] = useState('');
  const [platforms, setPlatforms] = useState<PlatformKey[]>(['microblog']);
  const [tagText, setTagText] = useState('');
  const [mediaText, setMediaText] = useState('');
  const [mode, setMode] = useState<'later' | 'now'>('later');
  const [when, setWhen] = useState(defaultWhen);
  const [last, setLast] = useState<Scheduled | null>(null);
  const [confirmingNow, setConfirmingNow] = useState(false);
  const idempotencyKey = useRef(newKey());
  const schedule = useSchedulePost();
  const now = useNow(30_000);

  // Memoised on the input's text: a new Date each render would make a new draft each render, and
  // the bridge's preview (spacing against every scheduled post) would never be taken as current.
  const whenDate = useMemo(() => (mode === 'later' ? fromLocalInput(when) : null), [mode, when]);
  const draft: PreviewInput = useMemo(
    () => ({
      post: text,
      platforms,
      hashtags: splitTags(tagText),
      mediaUrls: splitLines(mediaText),
      scheduleDate: mode === 'later' ? (whenDate?.toISOString() ?? when) : null,
      // What went out under this key (a partly failed send keeps the form) is not spaced against itself.
      idempotencyKey: idempotencyKey.current,
    }),
    [text, platforms, tagText, mediaText, mode, when, whenDate],
  );
  const local = reviewPost(
    { ...draft, platforms, hashtags: draft.hashtags ?? [], mediaUrls: draft.mediaUrls ?? [] },
    { now: new Date(now) },
  );
  const settled = useDebouncedValue(draft, 400);
  const preview = usePreview(text.trim() !== '' && platforms.length > 0 ? settled : null);
  // The bridge's verdict on the draft as it is now, else the same rules run here while it answers.
  const current = preview.data && settled === draft ? preview.data : null;
  const warnings = (current ? current.warnings : local.warnings).filter((warning) => !isMediaIssue(warning));
  const noQuota = quota !== undefined && quota.left === 0;
  const blocked = local.errors.length > 0 || noQuota || schedule.isPending;
  // An empty form is not an error to shout about: the button says enough. A platform's media
  // rule is said by MediaChecks, in words, beside the media field.
  const shownErrors = (current ? current.errors : local.errors).filter(
    (e) => !(e.field === 'post' && e.rule === 'required' && text === '') && e.code !== 'INVALID_MEDIA',
  );
  const refusal = schedule.error instanceof ApiError ? refusalWords(schedule.error) : [];
  const notes: FieldNote[] = [
    ...refusal.map((words) => ({ ...words, tone: 'error' as const })),
    ...shownErrors.map((issue) => ({ ...issueWords(issue), tone: 'error' as const })),
    ...warnings.map((warning) => ({ ...warningWords(warning, draft.scheduleDate), tone: 'warn' as const })),
  ];
  const at = (field: PostField) => notesForField('composer', notes, field);
  const atPost = at('post');
  const atPlatforms = at('platforms');
  const atHashtags = at('hashtags');
  const atMedia = at('mediaUrls');
  const atWhen = at('scheduleDate');
  const elsewhere = notesAt(notes, null);
  const sentAs = local.text !== text && text.trim() !== '' ? local.text : null;

  function toggle(platform: PlatformKey) {
    setPlatforms((current) =>
      current.includes(platform) ? current.filter((p) => p !== platform) : [...current, platform],
    );
    schedule.reset();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (blocked) return;
    // Posting now is public at once: it asks first (DESIGN §6.8).
    if (mode === 'now') setConfirmingNow(true);
    else send();
  }

  function send() {
    schedule.mutate(draft, {
      onSuccess: (answer) => {
        setLast(answer);
        setText('');
        setTagText('');
        setMediaText('');
        idempotencyKey.current = newKey();
      },
      onSettled: () => setConfirmingNow(false),
    });
  }

  return (
    <Panel title="Compose" testId="post-composer">
      <form className="posts-composer" onSubmit={submit} noValidate>
        <label className="field-label" htmlFor="post-text">
          Post
        </label>
        <textarea
          id="post-text"
          className="input posts-text"
          rows={5}
          value={text}
          aria-describedby={atPost.describedBy}
          placeholder="What goes out, e.g. “Episode 12 is live: https://…”"
          onChange={(event) => {
            setText(event.target.value);
            schedule.reset();
          }}
        />
        <div className="posts-counters" aria-live="polite" data-testid="char-counters">
          {local.lengths.length === 0 ? (
            <span className="muted small">Choose at least one platform.</span>
          ) : (
            local.lengths.map((check) => (
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
        {atPost.notes}

        <span className="field-label">Platforms</span>
        <div className="chips posts-platforms" role="group" aria-label="Platforms">
          {platformKeys.map((platform) => (
            <button
              key={platform}
              type="button"
              className={`chip ${platforms.includes(platform) ? 'chip-active' : ''}`}
              aria-pressed={platforms.includes(platform)}
              onClick={() => toggle(platform)}
              title={postingPlatforms[platform].media}
            >
              {postingPlatforms[platform].label}
            </button>
          ))}
        </div>
        {atPlatforms.notes}

        <div className="posts-two">
          <div>
            <label className="field-label" htmlFor="post-hashtags">
              Hashtags
            </label>
            <input
              id="post-hashtags"
              className="input"
              value={tagText}
              aria-describedby={atHashtags.describedBy}
              placeholder="podcast, studio"
              onChange={(event) => {
                setTagText(event.target.value);
                schedule.reset();
              }}
            />
            {atHashtags.notes}
            <p className="muted small posts-hint">Appended once; one already in the text is not repeated.</p>
          </div>
          <div>
            <label className="field-label" htmlFor="post-media">
              Media URLs
            </label>
            <textarea
              id="post-media"
              className="input mono posts-media"
              rows={2}
              value={mediaText}
              aria-describedby={atMedia.describedBy}
              placeholder="https://cdn.example.com/cover.png (one per line)"
              onChange={(event) => {
                setMediaText(event.target.value);
                schedule.reset();
              }}
            />
            <MediaChecks platforms={platforms} mediaUrls={draft.mediaUrls ?? []} />
            {atMedia.notes}
          </div>
        </div>

        <span className="field-label">When</span>
        <div className="posts-when">
          <label className="posts-radio">
            <input
              type="radio"
              name="post-when"
              checked={mode === 'later'}
              onChange={() => setMode('later')}
            />
            Schedule
          </label>
          <input
            type="datetime-local"
            className="input posts-datetime"
            aria-label={`Publish at (${timeZoneName()})`}
            aria-describedby={atWhen.describedBy}
            value={when}
            disabled={mode !== 'later'}
            onChange={(event) => {
              setWhen(event.target.value);
              schedule.reset();
            }}
          />
          <label className="posts-radio">
            <input type="radio" name="post-when" checked={mode === 'now'} onChange={() => setMode('now')} />
            Publish now
          </label>
        </div>
        {mode === 'later' && whenDate ? (
          <p className="small posts-zone" data-testid="post-when-utc">
            {formatLocal(whenDate.toISOString())} <span className="muted">({timeZoneName()})</span> ={' '}
            <span className="mono">{formatUtc(whenDate.toISOString())}</span>
          </p>
        ) : null}
        {atWhen.notes}

        {text.trim() !== '' && platforms.length > 0 ? (
          <>
            <span className="field-label">Preview</span>
            <PlatformPreviews text={local.text} platforms={platforms} />
          </>
        ) : null}
        {sentAs ? (
          <p className="small posts-sent-as" data-testid="post-sent-as">
            <span className="muted">Sent as:</span> {sentAs}
          </p>
        ) : null}
        <PostChecks
          errors={elsewhere.filter((n) => n.tone === 'error').map((n) => n.text)}
          warnings={elsewhere.filter((n) => n.tone === 'warn').map((n) => n.text)}
          testId="post-checks"
        />

        <div className="posts-submit">
          <button type="submit" className="button button-primary" disabled={blocked}>
            {schedule.isPending ? (
              <Spinner label="Sending…" />
            ) : mode === 'now' ? (
              'Publish now'
            ) : (
              'Schedule post'
            )}
          </button>
          {noQuota ? (
            <span className="field-error">
              Today's quota is used up; it resets at {formatLocal(quota.resetsAt)}.
            </span>
          ) : null}
        </div>
        {confirmingNow ? (
          <ConfirmDialog
            title={`Post “${excerpt(local.text)}” to ${platforms.map((p) => postingPlatforms[p].label).join(', ')} now?`}
            confirmLabel="Post now"
            pendingLabel="Sending…"
            pending={schedule.isPending}
            onConfirm={send}
            onCancel={() => setConfirmingNow(false)}
          >
            <p>It will be public.</p>
          </ConfirmDialog>
        ) : null}
        {schedule.isError ? (
          <ScheduleError error={schedule.error} placedAt={[...new Set(refusal.map((r) => r.field))]} />
        ) : null}
        {schedule.isSuccess && last ? <ScheduleSuccess answer={last} /> : null}
      </form>
    </Panel>
  );
}

/** The start of a post, to name it in one line. */
function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
}

/** A partial failure's details from the bridge: the platforms it went out on. */
function isPartial(details: unknown): details is { posted: string[] } {
  return (
    typeof details === 'object' &&
    details !== null &&
    Array.isArray((details as { posted?: unknown }).posted) &&
    (details as { posted: unknown[] }).posted.length > 0
  );
}

function ScheduleError({ error, placedAt }: { error: unknown; placedAt: Array<PostField | null> }) {
  const api = error instanceof ApiError ? error : null;
  const fieldsNamed = placedAt.flatMap((field) => (field ? [fieldNames[field]] : []));
  if (fieldsNamed.length > 0) {
    // Said in words at the field it is about; here only where to look, beside the button.
    return (
      <div className="banner banner-bad" role="alert" data-testid="schedule-error">
        <div>
          <strong>Not posted.</strong> The bridge refused it: see {fieldsNamed.join(' and ')} above.
        </div>
      </div>
    );
  }
  // The provider's own words, unless the message already says them (they were shown twice).
  const details =
    api && typeof api.details === 'string' && !errorMessage(error).includes(api.details) ? api.details : null;
  if (api && isPartial(api.details)) {
    // Partly out: the bridge says per platform what happened; the row below has what to do next.
    return (
      <div className="banner banner-warn" role="alert" data-testid="schedule-error">
        <div>
          <strong>Partly posted.</strong> {api.message}
          <span className="banner-detail">
            It is in the list below as Partly failed: Retry failed sends it again where it was refused, Cancel
            the rest takes back what is scheduled, Edit… changes it first.
          </span>
        </div>
      </div>
    );
  }
  return (
    <div className="banner banner-bad" role="alert" data-testid="schedule-error">
      <div>
        <strong>Not posted.</strong> <ErrorText error={error} />
        {details ? <span className="banner-detail">Provider: {details}</span> : null}
      </div>
    </div>
  );
}

function ScheduleSuccess({ answer }: { answer: Scheduled }) {
  const platforms = answer.posts.map((p) => postingPlatforms[p.platform as PlatformKey]?.label ?? p.platform);
  return (
    <div className="banner banner-ok" role="status" data-testid="schedule-success">
      <div>
        <strong>{answer.status === 'scheduled' ? 'Scheduled' : 'Published'}</strong>
        {answer.scheduleDate ? ` for ${formatLocal(answer.scheduleDate)}` : ''} on {platforms.join(', ')}
        <span className="banner-detail">
          Provider id <span className="mono">{answer.id}</span>
          {answer.warnings.length > 0
            ? ` · ${answer.warnings.map((w) => warningWords(w, answer.scheduleDate).text).join(' · ')}`
            : ''}
        </span>
      </div>
    </div>
  );
}
