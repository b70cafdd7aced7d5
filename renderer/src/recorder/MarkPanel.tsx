import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Panel } from '../components/Panel.js';
import { ErrorText, Spinner } from '../components/States.js';
import { position } from './TakesPanel.js';
import { useAddMark } from './api.js';

/**
 * "That was a good moment": a mark at the take's position (or the wall clock with no take). The
 * M key marks too, anywhere on the Recorder page except while typing in a field.
 */
export function MarkPanel() {
  const [label, setLabel] = useState('');
  const add = useAddMark();
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
          <button type="submit" className="button button-primary" disabled={add.isPending}>
            {add.isPending ? <Spinner label="Marking…" /> : 'Mark'}
          </button>
        </div>
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
