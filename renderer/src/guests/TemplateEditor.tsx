import { useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { ResponseOf } from '../../../shared/api/contract.js';
import {
  emailMoments,
  templateVariables,
  type EmailMoment,
  type getEmailTemplates,
  type GuestSummary,
  type TemplateSet,
  type TemplateSettings,
} from '../../../shared/api/guests.js';
import { errorMessage } from '../api/transport/client.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState, ErrorState, Spinner } from '../components/States.js';
import { formatDateTime } from '../format.js';
import { useUnsavedChangesGuard } from '../use-unsaved-changes-guard.js';
import { useDebouncedValue } from '../use-debounced-value.js';
import { usePreview, useSaveTemplates, useTemplates } from './api.js';

type Templates = ResponseOf<typeof getEmailTemplates>;

const momentLabel: Record<EmailMoment, string> = {
  outreach: 'Outreach',
  confirmation: 'Confirmation',
  'thank-you': 'Thank-you',
};
const momentUse: Record<EmailMoment, string> = {
  outreach: 'For the first contact (no workflow sends it).',
  confirmation: 'Sent with guest-confirmed when a guest moves into Confirmed.',
  'thank-you': 'Sent with guest-recorded when a guest moves into Recorded.',
};

const settingFields: Array<{
  key: Exclude<keyof TemplateSettings, 'publishLagDays'>;
  label: string;
  help: string;
}> = [
  { key: 'host', label: 'Host', help: '{{host}}' },
  { key: 'show', label: 'Show', help: '{{show}} when the episode has no show name' },
  { key: 'audienceSize', label: 'Audience size', help: '{{audience_size}}' },
  { key: 'duration', label: 'Duration', help: '{{duration}}' },
  { key: 'platform', label: 'Platform', help: '{{platform}} when the episode has no platforms' },
];

const VARIABLE = /\{\{\s*([^{}\s]+)\s*\}\}/g;
function unknownIn(text: string): string[] {
  const names = [...text.matchAll(VARIABLE)].map((m) => m[1] ?? '');
  return [...new Set(names.filter((name) => !(templateVariables as readonly string[]).includes(name)))];
}

/** Braces left once every well-formed `{{name}}` is taken out: `{{name}`, `{name}}`, a stray `}}`. */
function malformedIn(text: string): string[] {
  const rest = text.replace(VARIABLE, ' ');
  return [...new Set([...rest.matchAll(/\{+[^{}\s]*\}*|\}+/g)].map((m) => m[0]))];
}

const LEAVE_QUESTION = 'The email templates have unsaved changes. Leave and lose them?';

/**
 * The three email templates of spec §1.10 with a live preview for a real guest. `guests` is
 * undefined while the guest list loads.
 */
export function TemplateEditor({ guests }: { guests: readonly GuestSummary[] | undefined }) {
  const templates = useTemplates();
  const [moment, setMoment] = useState<EmailMoment>('confirmation');
  const fallbackGuest =
    guests?.find((g) => g.contentProductionId && g.scheduledDate && g.timezone) ?? guests?.[0] ?? null;
  const [chosenGuest, setChosenGuest] = useState<string | null>(null);
  const guestId = chosenGuest ?? fallbackGuest?.id ?? null;
  return (
    <Panel
      title="Email templates"
      testId="guests-templates"
      actions={
        <div className="chips guests-chips" role="tablist" aria-label="Email moment">
          {emailMoments.map((m) => (
            <button
              key={m}
              type="button"
              role="tab"
              aria-selected={m === moment}
              className={`chip ${m === moment ? 'chip-active' : ''}`}
              onClick={() => setMoment(m)}
            >
              {momentLabel[m]}
            </button>
          ))}
        </div>
      }
    >
      <QueryContent query={templates} what="the templates" skeletonLines={8}>
        {(data) => (
          <TemplateForm
            key={data.updatedAt ?? 'defaults'}
            data={data}
            moment={moment}
            guests={guests}
            guestId={guestId}
            onGuest={setChosenGuest}
          />
        )}
      </QueryContent>
    </Panel>
  );
}

function TemplateForm({
  data,
  moment,
  guests,
  guestId,
  onGuest,
}: {
  data: Templates;
  moment: EmailMoment;
  guests: readonly GuestSummary[] | undefined;
  guestId: string | null;
  onGuest: (id: string) => void;
}) {
  const [drafts, setDrafts] = useState<TemplateSet>(data.templates);
  const [settings, setSettings] = useState<TemplateSettings>(data.settings);
  const save = useSaveTemplates();
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const draft = drafts[moment];
  const dirty =
    JSON.stringify(drafts) !== JSON.stringify(data.templates) ||
    JSON.stringify(settings) !== JSON.stringify(data.settings);
  const unknown = emailMoments.flatMap((m) => unknownIn(drafts[m].subject + drafts[m].body));
  // Subject and body apart: a `{` at the end of one and `}` at the start of the other is no variable.
  const malformed = [
    ...new Set(
      emailMoments.flatMap((m) => [...malformedIn(drafts[m].subject), ...malformedIn(drafts[m].body)]),
    ),
  ];
  useUnsavedChangesGuard(dirty, LEAVE_QUESTION);
  /** Escape in a field reverts this template's subject and body to the saved text. */
  const revertOnEscape = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    setDraft(data.templates[moment]);
  };

  const setDraft = (change: Partial<TemplateSet[EmailMoment]>) =>
    setDrafts((current) => ({ ...current, [moment]: { ...current[moment], ...change } }));
  const insert = (variable: string) => {
    const element = bodyRef.current;
    const token = `{{${variable}}}`;
    const start = element?.selectionStart ?? draft.body.length;
    const end = element?.selectionEnd ?? draft.body.length;
    setDraft({ body: draft.body.slice(0, start) + token + draft.body.slice(end) });
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <div className="guests-templates">
      <div className="guests-template-form">
        <p className="small muted">{momentUse[moment]}</p>
        <label className="field-label" htmlFor="template-subject">
          Subject
        </label>
        <input
          id="template-subject"
          className="input"
          value={draft.subject}
          onChange={(event) => setDraft({ subject: event.target.value })}
          onKeyDown={revertOnEscape}
        />
        <label className="field-label" htmlFor="template-body">
          Body
        </label>
        <textarea
          id="template-body"
          ref={bodyRef}
          className="input guests-template-body"
          rows={14}
          value={draft.body}
          onChange={(event) => setDraft({ body: event.target.value })}
          onKeyDown={revertOnEscape}
        />
        <div className="guests-variables" aria-label="Insert a variable">
          {templateVariables.map((variable) => (
            <button
              key={variable}
              type="button"
              className="chip guests-variable"
              onClick={() => insert(variable)}
            >
              {`{{${variable}}}`}
            </button>
          ))}
        </div>
        <details className="guests-settings">
          <summary>Studio values used by the templates</summary>
          <div className="guests-settings-grid">
            {settingFields.map((field) => (
              <label key={field.key} className="filter">
                <span className="field-label">{field.label}</span>
                <input
                  className="input"
                  value={settings[field.key]}
                  onChange={(event) => setSettings((s) => ({ ...s, [field.key]: event.target.value }))}
                />
                <span className="small muted">{field.help}</span>
              </label>
            ))}
            <label className="filter">
              <span className="field-label">Publish lag (days)</span>
              <input
                className="input"
                type="number"
                min={0}
                max={365}
                value={settings.publishLagDays}
                onChange={(event) =>
                  setSettings((s) => ({
                    ...s,
                    publishLagDays: Math.max(0, Math.min(365, Number(event.target.value) || 0)),
                  }))
                }
              />
              <span className="small muted">
                {'{{publish_date}}'} when the episode has no publishing record
              </span>
            </label>
          </div>
        </details>
        {unknown.length > 0 ? (
          <p className="field-problem" role="alert">
            Unknown variable{unknown.length > 1 ? 's' : ''}: {unknown.map((v) => `{{${v}}}`).join(', ')}. Use
            one of the twelve above.
          </p>
        ) : null}
        {malformed.length > 0 ? (
          <p className="field-problem" role="alert">
            Unbalanced braces: {malformed.join(', ')}. Write a variable with two braces on each side, like{' '}
            {'{{name}}'}.
          </p>
        ) : null}
        {save.isError ? (
          <p className="field-problem" role="alert">
            {errorMessage(save.error)}
          </p>
        ) : null}
        <div className="guests-template-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={!dirty || unknown.length > 0 || malformed.length > 0 || save.isPending}
            onClick={() => save.mutate({ templates: drafts, settings })}
          >
            {save.isPending ? 'Saving…' : 'Save templates'}
          </button>
          <button
            type="button"
            className="button"
            disabled={JSON.stringify(draft) === JSON.stringify(data.defaults.templates[moment])}
            onClick={() => setDraft(data.defaults.templates[moment])}
          >
            Default text
          </button>
          <button
            type="button"
            className="button button-ghost"
            disabled={!dirty}
            onClick={() => {
              setDrafts(data.templates);
              setSettings(data.settings);
            }}
          >
            Discard changes
          </button>
          <span className="small muted">
            {dirty
              ? 'Unsaved changes (Escape in a field reverts this template)'
              : data.updatedAt
                ? `Saved ${formatDateTime(data.updatedAt)}`
                : 'Default texts'}
          </span>
        </div>
      </div>
      <Preview
        moment={moment}
        draft={draft}
        settings={settings}
        guests={guests}
        guestId={guestId}
        onGuest={onGuest}
      />
    </div>
  );
}

function Preview({
  moment,
  draft,
  settings,
  guests,
  guestId,
  onGuest,
}: {
  moment: EmailMoment;
  draft: TemplateSet[EmailMoment];
  settings: TemplateSettings;
  guests: readonly GuestSummary[] | undefined;
  guestId: string | null;
  onGuest: (id: string) => void;
}) {
  const template = useDebouncedValue(draft, 300);
  const values = useDebouncedValue(settings, 300);
  const preview = usePreview({ moment, guestId, template, settings: values });
  return (
    <div className="guests-preview" data-testid="template-preview">
      <label className="field-label" htmlFor="preview-guest">
        Preview for
      </label>
      <select
        id="preview-guest"
        className="input"
        value={guestId ?? ''}
        onChange={(event) => onGuest(event.target.value)}
      >
        {(guests ?? []).map((guest) => (
          <option key={guest.id} value={guest.id}>
            {guest.name} · {guest.stage}
          </option>
        ))}
      </select>
      {guests === undefined ? (
        <Spinner label="Loading guests…" />
      ) : guestId === null ? (
        <EmptyState title="No guest to preview with">The CRM has no guests yet.</EmptyState>
      ) : preview.isPending ? (
        <Spinner label="Rendering…" />
      ) : preview.isError && !preview.data ? (
        <ErrorState
          title="Couldn't render the preview"
          error={preview.error}
          onRetry={() => void preview.refetch()}
        />
      ) : preview.data ? (
        <>
          <div className={`guests-mail ${preview.isFetching ? 'guests-mail-stale' : ''}`}>
            <div className="guests-mail-head">
              <span className="muted small">To</span> <span>{preview.data.to ?? 'no email address'}</span>
              <span className="muted small">Subject</span> <strong>{preview.data.subject}</strong>
            </div>
            <div className="guests-mail-body">{preview.data.body}</div>
          </div>
          {preview.data.unknownVariables.length > 0 ? (
            <p className="field-problem">
              Unknown: {preview.data.unknownVariables.map((v) => `{{${v}}}`).join(', ')} (left as written)
            </p>
          ) : null}
          {preview.data.missingValues.length > 0 ? (
            <p className="guests-missing">
              No value for this guest: {preview.data.missingValues.join(', ')} (rendered empty)
            </p>
          ) : null}
          {preview.data.notes.length > 0 ? (
            <ul className="plain-list small muted">
              {preview.data.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
