import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { createBroadcastBody } from '../../../shared/api/broadcasts.js';
import type { CreateBroadcastInput } from '../../../shared/api/broadcasts.js';
import { ApiError } from '../api/transport/client.js';
import { Panel } from '../components/Panel.js';
import { Spinner } from '../components/States.js';
import { formatDateTime, formatUtc, timeZoneName } from '../format.js';
import { ErrorText } from '../components/States.js';
import { useCreateBroadcast } from './api.js';
import type { CreatedBroadcast } from './api.js';
import { defaultStart, localInputToIso, maskKey } from './format.js';

const sourceTypes = ['rtmp', 'rtmps', 'srt'] as const;
type SourceType = '' | (typeof sourceTypes)[number];

function toSourceType(value: string): SourceType {
  return sourceTypes.find((type) => type === value) ?? '';
}

interface FormState {
  name: string;
  description: string;
  scheduled: string;
  channelId: string;
  sourceType: SourceType;
  sourceUrl: string;
  sourceKey: string;
  isPublic: boolean;
  chatEnabled: boolean;
  dvr: boolean;
}

const initial = (): FormState => ({
  name: '',
  description: '',
  scheduled: defaultStart(Date.now()),
  channelId: '',
  sourceType: '',
  sourceUrl: '',
  sourceKey: '',
  isPublic: true,
  chatEnabled: true,
  dvr: true,
});

/** The request the bridge gets: empty optional fields left out, the start in UTC. */
function toBody(form: FormState): CreateBroadcastInput {
  return {
    name: form.name,
    ...(form.description.trim() ? { description: form.description.trim() } : {}),
    scheduledAt: localInputToIso(form.scheduled) ?? '',
    ...(form.channelId.trim() ? { channelId: form.channelId.trim() } : {}),
    ...(form.sourceType
      ? {
          streamSource: {
            type: form.sourceType,
            url: form.sourceUrl.trim(),
            ...(form.sourceKey ? { key: form.sourceKey } : {}),
          },
        }
      : {}),
    settings: { isPublic: form.isPublic, chatEnabled: form.chatEnabled, dvr: form.dvr },
  };
}

const friendly: Record<string, string> = {
  name: 'Give the broadcast a name.',
  scheduledAt: 'Pick a start date and time.',
  'streamSource.url': 'Enter the ingest URL, e.g. rtmp://live.example.com/app.',
  'streamSource.key': 'Enter the stream key, or leave it empty.',
};

/** The same schema the bridge parses with: what this form accepts, the bridge accepts. */
function problems(form: FormState): Record<string, string> {
  const result = createBroadcastBody.safeParse(toBody(form));
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    out[path] ??= friendly[path] ?? issue.message;
  }
  return out;
}

export function CreateBroadcastForm() {
  const [form, setForm] = useState<FormState>(initial);
  const [showKey, setShowKey] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateBroadcast();
  const issues = problems(form);
  const valid = Object.keys(issues).length === 0;
  const startIso = localInputToIso(form.scheduled);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    if (create.isError) create.reset();
  };
  const problem = (path: string) => (submitted ? issues[path] : undefined);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (!valid) return;
    create.mutate(toBody(form), {
      onSuccess: () => {
        setForm((current) => ({
          ...initial(),
          isPublic: current.isPublic,
          chatEnabled: current.chatEnabled,
          dvr: current.dvr,
        }));
        setShowKey(false);
        setSubmitted(false);
      },
    });
  }

  return (
    <Panel title="New broadcast" testId="create-broadcast">
      <form className="bc-form" onSubmit={submit} noValidate aria-label="New broadcast">
        <Field id="bc-name" label="Name" required problem={problem('name')}>
          <input
            id="bc-name"
            className="input"
            value={form.name}
            maxLength={200}
            placeholder="e.g. Live Q&A: Ask the Studio"
            onChange={(e) => set('name', e.target.value)}
            aria-invalid={problem('name') !== undefined}
          />
        </Field>
        <Field id="bc-description" label="Description">
          <textarea
            id="bc-description"
            className="input bc-textarea"
            rows={2}
            value={form.description}
            onChange={(e) => set('description', e.target.value)}
          />
        </Field>
        <Field
          id="bc-start"
          label={`Starts (${timeZoneName()})`}
          required
          problem={problem('scheduledAt')}
          help={startIso ? <span data-testid="bc-start-utc">= {formatUtc(startIso)}</span> : undefined}
        >
          <input
            id="bc-start"
            type="datetime-local"
            className="input"
            value={form.scheduled}
            onChange={(e) => set('scheduled', e.target.value)}
            aria-invalid={problem('scheduledAt') !== undefined}
          />
        </Field>
        <Field id="bc-channel" label="Channel" help="Empty: the host's default channel.">
          <input
            id="bc-channel"
            className="input"
            value={form.channelId}
            placeholder="main"
            onChange={(e) => set('channelId', e.target.value)}
          />
        </Field>

        <fieldset className="bc-fieldset">
          <legend>Stream source</legend>
          <Field id="bc-source-type" label="Type">
            <select
              id="bc-source-type"
              className="input"
              value={form.sourceType}
              onChange={(e) => set('sourceType', toSourceType(e.target.value))}
            >
              <option value="">None (the host's own ingest)</option>
              {sourceTypes.map((type) => (
                <option key={type} value={type}>
                  {type.toUpperCase()}
                </option>
              ))}
            </select>
          </Field>
          {form.sourceType ? (
            <>
              <Field id="bc-source-url" label="Ingest URL" required problem={problem('streamSource.url')}>
                <input
                  id="bc-source-url"
                  className="input mono"
                  value={form.sourceUrl}
                  placeholder={`${form.sourceType}://live.example.com/app`}
                  onChange={(e) => set('sourceUrl', e.target.value)}
                  aria-invalid={problem('streamSource.url') !== undefined}
                />
              </Field>
              <Field
                id="bc-source-key"
                label="Stream key"
                problem={problem('streamSource.key')}
                help={
                  form.sourceKey ? (
                    <span>
                      Sent once to the gateway; the bridge records it as{' '}
                      <code data-testid="bc-key-mask">{maskKey(form.sourceKey)}</code>.
                    </span>
                  ) : (
                    'Optional. Never shown in full after this.'
                  )
                }
              >
                <div className="input-row">
                  <input
                    id="bc-source-key"
                    className="input mono"
                    type={showKey ? 'text' : 'password'}
                    value={form.sourceKey}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => set('sourceKey', e.target.value)}
                  />
                  <button type="button" className="button button-small" onClick={() => setShowKey((v) => !v)}>
                    {showKey ? 'Hide' : 'Show'}
                  </button>
                </div>
              </Field>
            </>
          ) : null}
        </fieldset>

        <fieldset className="bc-fieldset bc-toggles">
          <legend>Settings</legend>
          <Toggle label="Public" checked={form.isPublic} onChange={(v) => set('isPublic', v)} />
          <Toggle label="Chat" checked={form.chatEnabled} onChange={(v) => set('chatEnabled', v)} />
          <Toggle label="DVR (viewers can rewind)" checked={form.dvr} onChange={(v) => set('dvr', v)} />
        </fieldset>

        <div className="bc-form-actions">
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {create.isPending ? <Spinner label="Creating…" /> : 'Create broadcast'}
          </button>
          {submitted && !valid ? (
            <span className="field-error" role="alert">
              Fix the marked fields first.
            </span>
          ) : null}
        </div>
        {create.isError ? <CreateError error={create.error} /> : null}
        {create.isSuccess ? <Created result={create.data} startsAt={create.variables.scheduledAt} /> : null}
      </form>
    </Panel>
  );
}

function Field({
  id,
  label,
  required,
  problem,
  help,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  problem?: string | undefined;
  help?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="bc-field">
      <label className="field-label" htmlFor={id}>
        {label}
        {required ? <span className="bc-required"> *</span> : null}
      </label>
      {children}
      {problem ? (
        <span className="field-error" role="alert">
          {problem}
        </span>
      ) : help ? (
        <span className="muted small">{help}</span>
      ) : null}
    </div>
  );
}

function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <label className="bc-toggle">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

function CreateError({ error }: { error: unknown }) {
  // The gateway's own reason, when it refused what was sent; a peer that was off, throttling or
  // failing is said in words by ErrorText, and its details only repeat the call that failed.
  const peerFailed = error instanceof ApiError && error.peer !== undefined && error.peer.cause !== 'refused';
  const details =
    error instanceof ApiError && typeof error.details === 'string' && !peerFailed ? error.details : null;
  return (
    <div className="bc-result bc-result-bad" role="alert" data-testid="create-broadcast-error">
      <strong>The broadcast was not created.</strong> <ErrorText error={error} />
      {details ? <span className="bc-details"> ({details})</span> : null}
    </div>
  );
}

/** Created: when it starts (what the operator set, not the moment it was created), and its pages. */
function Created({ result, startsAt }: { result: CreatedBroadcast; startsAt: string }) {
  return (
    <div className="bc-result bc-result-ok" role="status" data-testid="create-broadcast-done">
      <strong>Broadcast created</strong> at the host
      {result.recordId ? ' and in the CRM' : ''}: it starts {formatDateTime(startsAt)} ({formatUtc(startsAt)}
      ).{' '}
      <a href={result.embedUrl} target="_blank" rel="noreferrer">
        Embed
      </a>{' '}
      ·{' '}
      <a href={result.dashboardUrl} target="_blank" rel="noreferrer">
        Host dashboard
      </a>
      {result.warnings?.map((warning) => (
        <p key={warning} className="bc-warning">
          {warning}
        </p>
      ))}
    </div>
  );
}
