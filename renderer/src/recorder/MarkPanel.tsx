import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Panel } from '../components/Panel.js';
import { ErrorText, Spinner } from '../components/States.js';
import { position } from './take-words.js';
import type { RecorderStatus } from '../../../shared/api/recorder.js';
import { useAddMark, useRecorderStatus } from './api.js';

/**
 * "That was a good moment": a mark at the take's position (or the wall clock with no take). The
 * M key marks too, anywhere on the Recorder page except while typing in a field.
 */
export function MarkPanel() {
  const [label, setLabel] = useState('');
  const add = useAddMark();
  const status = useRecorderStatus().data;
  const now = status ? whatAMarkIsNow(status) : null;
  const latest = useRef<() => void>(() => undefined);
  // The key handler is installed once and calls the latest render's mark (its label, its pending state).
  useEffect(() => {
    latest.current = () => {
      if (!add.isPending) add.mutate(label.trim(), { onSuccess: () => setLabel('') });
    };
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'm' && event.key !== 'M') return;
      if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    latest.current();
  }

  const result = add.data;
  return (
    <Panel title="Mark a moment" testId="mark-panel">
      <form className="recorder-form" onSubmit={submit}>
        <label className="field-label" htmlFor="mark-label">
          Label (optional)
        </label>
        <div className="input-row">
          <input
            id="mark-label"
            className="input"
            value={label}
            maxLength={200}
            placeholder="e.g. great answer"
            autoComplete="off"
            onChange={(event) => setLabel(event.target.value)}
          />
          <button
            type="submit"
            className="button button-primary"
            disabled={add.isPending}
            aria-describedby={now ? 'mark-now' : undefined}
          >
            {add.isPending ? <Spinner label="Marking…" /> : 'Mark'}
          </button>
        </div>
        {now ? (
          <span
            id="mark-now"
            className={now.inTake ? 'muted small' : 'mark-now-loose small'}
            data-testid="mark-now"
          >
            {now.words}
          </span>
        ) : null}
        <span className="muted small">
          Press <kbd>M</kbd> anywhere on this page to mark without a label.
        </span>
      </form>
      {add.isError ? (
        <p className="field-error" role="alert">
          <ErrorText error={add.error} />
        </p>
      ) : null}
      {result ? (
        <p className={result.note ? 'field-help' : 'field-success'} role="status" data-testid="mark-result">
          {result.mark.offsetS !== null && result.takeName !== null
            ? `Marked ${position(result.mark.offsetS)} into take ${result.takeName}.`
            : `Marked: ${result.note ?? 'no take'}.`}
        </p>
      ) : null}
    </Panel>
  );
}

/** What a mark made now becomes, said at the button before it is pressed (issue #41.2). */
function whatAMarkIsNow({ connection, recording }: RecorderStatus): { inTake: boolean; words: string } {
  if (!connection.configured)
    return { inTake: false, words: 'No recorder is configured: a mark keeps only the time of day.' };
  if (!connection.connected)
    return { inTake: false, words: 'OBS is not connected: a mark keeps only the time of day, in no take.' };
  if (!recording.active)
    return { inTake: false, words: 'Nothing is recording: a mark keeps only the time of day, in no take.' };
  return {
    inTake: true,
    words: `Recording${recording.paused ? ' (paused)' : ''}: a mark lands in take ${recording.takeName ?? 'unknown'} at its position.`,
  };
}
