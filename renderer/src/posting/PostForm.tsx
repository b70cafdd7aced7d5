import type { ReactNode } from 'react';
import { platformKeys, postingPlatforms, type PlatformKey } from '../../../shared/platforms.js';
import type { LengthCheck } from '../../../shared/post-rules.js';
import { formatLocal, formatUtc, timeZoneName } from '../format.js';
import { CharCounters } from './CharCounters.js';
import { notesForField } from './FieldNotes.js';
import { notesAt, type FieldNote } from './post-form-notes.js';
import { MediaChecks } from './MediaChecks.js';
import { PlatformPreviews } from './PlatformPreviews.js';
import { PostChecks } from './PostChecks.js';
import { splitLines, type PostFormValues } from './post-form-values.js';
import type { PostField } from './post-words.js';
import { platformLabel } from './status.js';
import { fromLocalInput } from './time.js';

/** The forms that show a post's fields: the composer and the Edit (reschedule) dialog. */
export type PostFormName = 'composer' | 'reschedule';

/** What a form's inputs and test ids start with (its notes' ids start with its name). */
const idPrefixes: Record<PostFormName, string> = { composer: 'post', reschedule: 'reschedule' };

export interface PostFormProps {
  /** Which form: names its fields' notes (`composer-post-notes`), inputs and test ids. */
  form: PostFormName;
  /** A page's panel (roomy, with examples in the empty fields) or a dialog (compact). */
  layout: 'panel' | 'dialog';
  values: PostFormValues;
  /** Every edit of a value; the host keeps the values. */
  onChange: (change: Partial<PostFormValues>) => void;
  /** Rules broken and advice, each at its field; those about no one field are listed below the fields. */
  notes: readonly FieldNote[];
  /** Characters per chosen platform (the rules' lengths), shown under the text. */
  lengths?: readonly LengthCheck[];
  /** The text as it goes out (hashtags appended): a preview per platform, and "Sent as" when it is not what was typed. */
  sentText?: string;
  /** A hashtags field, beside the media links. */
  hashtags?: boolean;
  /** "Publish now" offered beside the time. */
  publishNow?: boolean;
  /** Platforms the post is already out or queued on: shown, not to be chosen. */
  lockedPlatforms?: readonly PlatformKey[];
  /** A CRM record's post: it keeps its platform (said, not chosen) and takes one media link. */
  fromCrm?: boolean;
}

/**
 * A post's fields, each with its notes (FieldNotes): text, platforms, hashtags, media links and
 * time, then what belongs to no one field (PostChecks). The host gives the <form> around them,
 * its title and its actions.
 */
export function PostForm({
  form,
  layout,
  values,
  onChange,
  notes,
  lengths,
  sentText,
  hashtags = false,
  publishNow = false,
  lockedPlatforms = [],
  fromCrm = false,
}: PostFormProps) {
  const id = idPrefixes[form];
  const panel = layout === 'panel';
  const at = (field: PostField) => notesForField(form, notes, field);
  const atPost = at('post');
  const atPlatforms = at('platforms');
  const atHashtags = at('hashtags');
  const atMedia = at('mediaUrls');
  const atWhen = at('scheduleDate');
  const elsewhere = notesAt(notes, null);
  const mediaUrls = splitLines(values.media);
  const whenDate = publishNow && values.now ? null : fromLocalInput(values.when);
  const typed = values.text.trim() !== '';
  const previewText = sentText !== undefined && typed && values.platforms.length > 0 ? sentText : null;
  const sentAs = sentText !== undefined && sentText !== values.text && typed ? sentText : null;

  function toggle(platform: PlatformKey) {
    const { platforms } = values;
    onChange({
      platforms: platforms.includes(platform)
        ? platforms.filter((p) => p !== platform)
        : [...platforms, platform],
    });
  }

  const media: ReactNode = (
    <>
      <label className="field-label" htmlFor={`${id}-media`}>
        {panel ? 'Media URLs' : fromCrm ? 'Media link' : 'Media links (one per line)'}
      </label>
      <textarea
        id={`${id}-media`}
        className="input mono posts-media"
        rows={fromCrm ? 1 : 2}
        value={values.media}
        aria-describedby={atMedia.describedBy}
        placeholder={
          panel ? 'https://cdn.example.com/cover.png (one per line)' : 'https://cdn.example.com/cover.jpg'
        }
        onChange={(event) => onChange({ media: event.target.value })}
      />
      <MediaChecks platforms={values.platforms} mediaUrls={mediaUrls} />
      {atMedia.notes}
    </>
  );

  return (
    <>
      <label className="field-label" htmlFor={`${id}-text`}>
        Post
      </label>
      <textarea
        id={`${id}-text`}
        className="input posts-text"
        rows={panel ? 5 : 4}
        value={values.text}
        aria-describedby={atPost.describedBy}
        placeholder={panel ? 'What goes out, e.g. “Episode 12 is live: https://…”' : undefined}
        onChange={(event) => onChange({ text: event.target.value })}
      />
      {lengths ? <CharCounters lengths={lengths} /> : null}
      {atPost.notes}

      <span className="field-label">Platforms</span>
      {fromCrm ? (
        <p className="small">
          {values.platforms.map(platformLabel).join(', ')}{' '}
          <span className="muted">(a post from the CRM keeps its platform)</span>
        </p>
      ) : (
        <div className="chips posts-platforms" role="group" aria-label="Platforms">
          {platformKeys.map((platform) => {
            const locked = lockedPlatforms.includes(platform);
            return (
              <button
                key={platform}
                type="button"
                className={`chip ${values.platforms.includes(platform) ? 'chip-active' : ''}`}
                aria-pressed={values.platforms.includes(platform)}
                disabled={locked}
                title={
                  locked
                    ? 'Already out or queued on this platform'
                    : panel
                      ? postingPlatforms[platform].media
                      : undefined
                }
                onClick={() => toggle(platform)}
              >
                {postingPlatforms[platform].label}
              </button>
            );
          })}
        </div>
      )}
      {atPlatforms.notes}

      {hashtags ? (
        <div className="posts-two">
          <div>
            <label className="field-label" htmlFor={`${id}-hashtags`}>
              Hashtags
            </label>
            <input
              id={`${id}-hashtags`}
              className="input"
              value={values.hashtags}
              aria-describedby={atHashtags.describedBy}
              placeholder="podcast, studio"
              onChange={(event) => onChange({ hashtags: event.target.value })}
            />
            {atHashtags.notes}
            <p className="muted small posts-hint">Appended once; one already in the text is not repeated.</p>
          </div>
          <div>{media}</div>
        </div>
      ) : (
        media
      )}

      {publishNow ? (
        <>
          <span className="field-label">When</span>
          <div className="posts-when">
            <label className="posts-radio">
              <input
                type="radio"
                name={`${id}-when`}
                checked={!values.now}
                onChange={() => onChange({ now: false })}
              />
              Schedule
            </label>
            <input
              type="datetime-local"
              className="input posts-datetime"
              aria-label={`Publish at (${timeZoneName()})`}
              aria-describedby={atWhen.describedBy}
              value={values.when}
              disabled={values.now}
              onChange={(event) => onChange({ when: event.target.value })}
            />
            <label className="posts-radio">
              <input
                type="radio"
                name={`${id}-when`}
                checked={values.now}
                onChange={() => onChange({ now: true })}
              />
              Publish now
            </label>
          </div>
        </>
      ) : (
        <>
          <label className="field-label" htmlFor={`${id}-when`}>
            Publish at ({timeZoneName()})
          </label>
          <input
            id={`${id}-when`}
            type="datetime-local"
            className="input posts-datetime"
            value={values.when}
            aria-describedby={atWhen.describedBy}
            onChange={(event) => onChange({ when: event.target.value })}
          />
        </>
      )}
      {/* Beside the choice of now or later the time has no label of its own to say the zone: said here. */}
      {whenDate ? (
        <p className="small posts-zone" data-testid={`${id}-when-utc`}>
          {formatLocal(whenDate.toISOString())}{' '}
          {publishNow ? (
            <>
              <span className="muted">({timeZoneName()})</span>{' '}
            </>
          ) : null}
          = <span className="mono">{formatUtc(whenDate.toISOString())}</span>
        </p>
      ) : null}
      {atWhen.notes}

      {previewText !== null ? (
        <>
          <span className="field-label">Preview</span>
          <PlatformPreviews text={previewText} platforms={values.platforms} />
        </>
      ) : null}
      {sentAs ? (
        <p className="small posts-sent-as" data-testid={`${id}-sent-as`}>
          <span className="muted">Sent as:</span> {sentAs}
        </p>
      ) : null}
      <PostChecks
        errors={elsewhere.filter((n) => n.tone === 'error').map((n) => n.text)}
        warnings={elsewhere.filter((n) => n.tone === 'warn').map((n) => n.text)}
        testId={`${id}-checks`}
      />
    </>
  );
}
