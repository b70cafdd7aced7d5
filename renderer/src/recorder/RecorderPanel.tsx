import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { checkRecorderFilename, MAX_FILENAME_BYTES } from '../../../shared/recorder-filename.js';
import { useRecorderFilename, useSetRecorderFilename } from './api.js';
import { formatDateTime, formatRelative, useNow } from '../format.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { ErrorText, Spinner } from '../components/States.js';

/**
 * The next recording's filename: what the bridge holds now, and a form that checks the name with
 * the same rule the bridge applies (shared/recorder-filename.ts) before it is sent.
 */
export function RecorderPanel({ title = 'Recorder', footer }: { title?: string; footer?: ReactNode }) {
  const current = useRecorderFilename();
  return (
    <Panel
      title={title}
      testId="recorder-panel"
      actions={current.isFetching && !current.isPending ? <Spinner /> : null}
    >
      <QueryContent query={current} what="the recorder filename" skeletonLines={2}>
        {(data) => (
          <CurrentFilename filename={data.filename} setAt={data.setAt} cleared={data.clearedByRestart} />
        )}
      </QueryContent>
      <FilenameForm />
      {footer}
    </Panel>
  );
}

function CurrentFilename({
  filename,
  setAt,
  cleared,
}: {
  filename: string | null;
  setAt: string | null;
  cleared: { filename: string; clearedAt: string } | null;
}) {
  const now = useNow(30_000);
  return (
    <div className="recorder-current">
      <span className="field-label">Next recording</span>
      {filename === null && cleared ? (
        <p className="recorder-none" data-testid="recorder-current">
          No filename: <code>{cleared.filename}</code> was cleared when the bridge restarted at{' '}
          <span title={formatDateTime(cleared.clearedAt)}>{formatDateTime(cleared.clearedAt)}</span> (names
          are held in memory only). Set it again before the next recording.
        </p>
      ) : filename === null ? (
        <p className="recorder-none" data-testid="recorder-current">
          No filename set: the recorder will use its own default name.
        </p>
      ) : (
        <p className="recorder-name mono" data-testid="recorder-current">
          {filename}
        </p>
      )}
      {setAt ? (
        <span className="muted small" title={formatDateTime(setAt)}>
          set {formatRelative(setAt, now)}
        </span>
      ) : null}
    </div>
  );
}

function FilenameForm() {
  const [value, setValue] = useState('');
  const save = useSetRecorderFilename();
  const check = checkRecorderFilename(value);
  const bytes = new TextEncoder().encode(value).length;
  const showProblem = value !== '' && !check.ok;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!check.ok) return;
    save.mutate(value, { onSuccess: () => setValue('') });
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
          The bridge refused it: <ErrorText error={save.error} />
        </p>
      ) : null}
      {save.isSuccess ? (
        <p className="field-success" role="status">
          Saved. The next recording will be named <code>{save.data.filename}</code>.
        </p>
      ) : null}
    </form>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
