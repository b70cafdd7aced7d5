import { useId } from 'react';
import { errorMessage } from '../api/transport/client.js';
import { useRecorderTakes } from '../recorder/api.js';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/**
 * The recorder take the transcript is of (optional): each of its live marks pins a clip
 * (DESIGN §6.6). Takes come from GET /api/recorder/takes, newest first.
 */
export function TakePicker({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const id = useId();
  const takes = useRecorderTakes();
  const list = takes.data?.takes ?? [];
  const chosen = list.find((take) => take.id === value);
  return (
    <div className="cl-field">
      <label className="field-label" htmlFor={id}>
        Take <span className="muted small">(optional)</span>
      </label>
      <select
        id={id}
        className="input"
        value={value ?? ''}
        disabled={takes.isPending}
        onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
        aria-describedby={`${id}-help`}
      >
        <option value="">{takes.isPending ? 'Loading takes…' : 'No take: suggestions by score only'}</option>
        {list.map((take) => (
          <option key={take.id} value={take.id}>
            {take.name} · reel {take.reel} · {take.marks.length} mark{take.marks.length === 1 ? '' : 's'} ·{' '}
            {when(take.startedAt)}
            {take.stoppedAt ? '' : ' (recording)'}
          </option>
        ))}
      </select>
      <p id={`${id}-help`} className="cl-help small muted" data-testid="clips-take-help">
        {takes.isError
          ? `Takes unavailable: ${errorMessage(takes.error)}`
          : chosen
            ? chosen.marks.length > 0
              ? `Its ${chosen.marks.length} live mark${chosen.marks.length === 1 ? '' : 's'} each pin a clip, first.`
              : 'This take has no marks: suggestions by score only.'
            : list.length === 0 && !takes.isPending
              ? 'No takes recorded yet. Marks made while recording pin clips.'
              : 'Pick the recording the transcript is of: its live marks pin clips.'}
      </p>
    </div>
  );
}
