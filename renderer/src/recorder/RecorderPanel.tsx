import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { checkRecorderFilename, MAX_FILENAME_BYTES } from '../../../shared/recorder-filename.js';
import type { FilenameState, RecorderFilenameStatus } from '../../../shared/api/recorder.js';
import { noNameLine, obsNameWords } from '../../../shared/recorder-status.js';
import { useRecorderFilename, useRecorderStatus, useSetRecorderFilename } from './api.js';
import { formatDateTime, formatLocal, formatRelative, useNow } from '../format.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { ErrorText, Spinner } from '../components/States.js';
import { StatusPill, type Tone } from '../components/StatusPill.js';
import { isOutageError } from '../api/outage/outage-recovery.js';
import { ProductionLink } from '../productions/ProductionLink.js';

/**
 * The next recording's filename: what the bridge holds now, and a form that checks the name with
 * the same rule the bridge applies (shared/recorder-filename.ts) before it is sent.
 */
export function RecorderPanel({ title = 'Recorder', footer }: { title?: string; footer?: ReactNode }) {
  const current = useRecorderFilename();
  // Until the status answers, a name OBS read back means a recorder is there.
  const recorder = useRecorderStatus().data?.connection.configured ?? current.data?.obsFilename != null;
  return (
    <Panel
      title={title}
      testId="recorder-panel"
      actions={current.isFetching && !current.isPending ? <Spinner /> : null}
    >
      <QueryContent query={current} what="the recorder filename" skeletonLines={2}>
        {(data) => <CurrentFilename status={data} recorder={recorder} />}
      </QueryContent>
      <FilenameForm recorder={recorder} current={current.data?.filename ?? null} />
      {footer}
    </Panel>
  );
}

const stateWords: Record<FilenameState, { tone: Tone; label: string; detail: string }> = {
  applied: { tone: 'ok', label: 'In OBS', detail: 'OBS read it back: the next recording gets this name.' },
  pending: {
    tone: 'warn',
    label: 'Pending',
    detail: 'OBS is not connected: the bridge applies it on connect.',
  },
  failed: { tone: 'bad', label: 'Not in OBS', detail: 'OBS did not take it' },
  held: {
    tone: 'neutral',
    label: 'Held',
    detail: 'No recorder is configured: the name is held for the device to read.',
  },
};

type FilenameStatus = Omit<RecorderFilenameStatus, 'success'>;

function CurrentFilename({ status, recorder }: { status: FilenameStatus; recorder: boolean }) {
  // Every second: a name the bridge changes itself (a take's _T02) must not read "set in 17 s".
  const now = useNow(1_000);
  const { filename, setAt, state, failure, obsFilename, requested } = status;
  const words = state ? stateWords[state] : null;
  return (
    <div className="recorder-current">
      <span className="field-label">Next recording</span>
      {filename === null ? (
        <NoName status={status} recorder={recorder} />
      ) : (
        <p className="recorder-name mono" data-testid="recorder-current">
          {filename}
        </p>
      )}
      {words ? (
        <div className="recorder-state" data-testid="recorder-state">
          <StatusPill tone={words.tone}>{words.label}</StatusPill>
          <span className="muted small">
            {state === 'failed' ? `${words.detail}: ${failure ?? 'no reason given'}` : words.detail}
          </span>
        </div>
      ) : null}
      {requested !== null && requested !== filename ? (
        <span className="muted small">
          <code>{requested}</code> was used by a take: this one gets the next take number, so no file is
          overwritten.
        </span>
      ) : null}
      {filename !== null && obsFilename !== null && obsFilename !== filename ? (
        <span className="muted small">
          OBS will use {obsNameWords(obsFilename)} until it takes this name.
        </span>
      ) : null}
      {setAt ? (
        <span className="muted small" title={formatDateTime(setAt)}>
          set {formatRelative(setAt, now)}
        </span>
      ) : null}
      {filename !== null && status.contentProductionId !== null ? (
        <span className="small" data-testid="recorder-production">
          Its takes belong to <ProductionLink id={status.contentProductionId} name="its production" />
        </span>
      ) : null}
    </div>
  );
}

/** No name held (a restart cleared it): one sentence, whether the next recording is named right. */
function NoName({ status, recorder }: { status: FilenameStatus; recorder: boolean }) {
  const { clearedAt, clearedByRestart, obsFilename } = status;
  const since = clearedByRestart?.clearedAt ?? clearedAt;
  if (since === null) {
    return (
      <p className="recorder-none" data-testid="recorder-current">
        No filename set.
      </p>
    );
  }
  const line = noNameLine({
    cleared: clearedByRestart?.filename ?? null,
    time: formatLocal(since),
    obsFilename,
    recorder,
  });
  return (
    <p
      className={line.ok ? 'recorder-none' : 'recorder-none recorder-none-act'}
      data-testid="recorder-current"
      title={`The bridge keeps the name in memory only (since ${formatDateTime(since)})`}
    >
      {line.sentence}
    </p>
  );
}

function FilenameForm({ recorder, current }: { recorder: boolean; current: string | null }) {
  const [value, setValue] = useState('');
  const save = useSetRecorderFilename();
  const check = checkRecorderFilename(value, new Date(), { recorder });
  const bytes = new TextEncoder().encode(value).length;
  const showProblem = value !== '' && !check.ok;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!check.ok) return;
    save.mutate({ filename: value }, { onSuccess: () => setValue('') });
  }

  return (
    <form className="recorder-form" onSubmit={submit} noValidate>
      <label className="field-label" htmlFor="recorder-filename">
        New filename
      </label>
      <div className="input-row">
        <input
          id="recorder-filename"
          className={`input mono ${showProblem ? 'input-invalid' : ''}`.trim()}
          value={value}
          placeholder="e.g. 20260301_episode_42"
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setValue(event.target.value);
            save.reset();
          }}
          aria-invalid={showProblem}
          aria-describedby="recorder-filename-help"
        />
        <button type="submit" className="button button-primary" disabled={!check.ok || save.isPending}>
          {save.isPending ? <Spinner label="Saving…" /> : 'Set filename'}
        </button>
      </div>
      <div id="recorder-filename-help" className="field-help">
        {showProblem && !check.ok ? (
          <div className="field-problem" data-testid="recorder-rule" role="alert">
            <span>{capitalise(check.rule)}.</span>
            <span className="suggestion">
              Suggestion: <code data-testid="recorder-suggestion">{check.suggestion}</code>
              <button
                type="button"
                className="button button-small"
                onClick={() => {
                  setValue(check.suggestion);
                  save.reset();
                }}
              >
                Use suggestion
              </button>
            </span>
          </div>
        ) : (
          <span className="muted small">
            {value === ''
              ? `Up to ${MAX_FILENAME_BYTES} bytes; no / \\ : * ? " < > |; no leading or trailing space or dot; not a device name such as CON or COM1.`
              : `${bytes} of ${MAX_FILENAME_BYTES} bytes · looks good`}
          </span>
        )}
      </div>
      {save.isError ? (
        <p className="field-error" role="alert" data-testid="recorder-save-error">
          {isOutageError(save.error) ? 'Not saved: ' : 'The bridge refused it: '}
          <ErrorText error={save.error} />
        </p>
      ) : null}
      {/* Once the bridge moved on (a take gave the name _T02), the answer is stale: the panel above says. */}
      {save.isSuccess && save.data.filename === current ? (
        <p className="field-success" role="status">
          {save.data.state === 'failed'
            ? 'Saved in the bridge, but OBS did not take it (see above).'
            : save.data.state === 'pending'
              ? 'Saved. OBS gets it when it connects.'
              : 'Saved.'}{' '}
          The next recording will be named <code>{save.data.filename}</code>.
        </p>
      ) : null}
    </form>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
