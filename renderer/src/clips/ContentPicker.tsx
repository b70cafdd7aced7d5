import { useId, useState } from 'react';
import type { ContentSummary } from '../../../shared/api/clips.js';
import { ErrorState, ErrorText, Spinner } from '../components/States.js';
import { useContentList } from './api.js';

const label = (c: ContentSummary) =>
  [c.name, [c.showName, c.stage].filter((part) => part !== null).join(' · ')]
    .filter((part) => part !== '')
    .join(' — ');

/**
 * The ContentProduction the transcript belongs to, from the CRM (newest first, 100 at a time).
 * When the CRM cannot be listed, an id can still be typed: analysis itself needs no CRM.
 */
export function ContentPicker({
  value,
  onChange,
  problem,
}: {
  value: string;
  onChange: (id: string) => void;
  problem: string | undefined;
}) {
  const { query, records, total } = useContentList();
  const [filter, setFilter] = useState('');
  const ids = { select: useId(), filter: useId(), manual: useId() };
  const needle = filter.trim().toLowerCase();
  const shown = needle ? records.filter((c) => label(c).toLowerCase().includes(needle)) : records;
  const selectedHidden = value !== '' && !shown.some((c) => c.id === value);
  const selected = records.find((c) => c.id === value);
  const unavailable = query.isError && records.length === 0;

  return (
    <div className="cl-field" data-testid="clips-content">
      <label className="field-label" htmlFor={unavailable ? ids.manual : ids.select}>
        Content record
      </label>
      {query.isPending ? (
        <div className="cl-picker-loading">
          <Spinner label="Loading content from the CRM…" />
        </div>
      ) : unavailable ? (
        <>
          <ErrorState
            title="Couldn't list content from the CRM"
            error={query.error}
            onRetry={() => void query.refetch()}
          />
          <input
            id={ids.manual}
            className="input mono"
            placeholder="Or type a ContentProduction id"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={problem !== undefined}
          />
        </>
      ) : records.length === 0 ? (
        <>
          <p className="cl-empty-note small">
            The CRM has no ContentProduction records yet. Create the episode there first, or type its id.
          </p>
          <input
            id={ids.select}
            className="input mono"
            placeholder="ContentProduction id"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={problem !== undefined}
          />
        </>
      ) : (
        <>
          {records.length > 8 ? (
            <input
              id={ids.filter}
              className="input cl-filter"
              type="search"
              placeholder={`Filter ${records.length} records by name, show or stage`}
              aria-label="Filter by name, show or stage"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
          ) : null}
          <select
            id={ids.select}
            className="input"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={problem !== undefined}
          >
            <option value="">Choose a content record…</option>
            {selectedHidden && selected ? <option value={selected.id}>{label(selected)}</option> : null}
            {shown.map((c) => (
              <option key={c.id} value={c.id}>
                {label(c)}
              </option>
            ))}
          </select>
          <div className="cl-picker-foot small muted">
            {needle ? `${shown.length} of ${records.length} shown` : `${records.length} of ${total} records`}
            {query.hasNextPage ? (
              <button
                type="button"
                className="link-button"
                onClick={() => void query.fetchNextPage()}
                disabled={query.isFetchingNextPage}
              >
                {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            ) : null}
            {query.isError ? (
              <span className="cl-text-bad" data-testid="content-refresh-error">
                The list could not be refreshed. <ErrorText error={query.error} />
              </span>
            ) : null}
          </div>
        </>
      )}
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
