import { useState } from 'react';
import { LocalTime } from '../components/LocalTime.js';
import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import { useSearchParams } from '../hash-router.js';
import { useDebouncedValue } from '../use-debounced-value.js';
import { useProductions, type ListQuery } from './api.js';
import { productionHash } from './production-hash.js';
import { stageTone } from './stage-tone.js';

const PAGE = 25;

/** The CRM's productions by scheduled date, newest first: search by name, filter by show. */
export function ProductionList() {
  const [params, setParams] = useSearchParams();
  const [typed, setTyped] = useState(params.get('q') ?? '');
  const q = useDebouncedValue(typed.trim(), 300);
  const show = params.get('show') ?? '';
  const offset = Math.max(0, Number(params.get('offset') ?? 0) || 0);
  const query: ListQuery = { limit: PAGE, offset, ...(q ? { q } : {}), ...(show ? { show } : {}) };
  const list = useProductions(query);
  const [shows, setShows] = useState<string[]>([]);
  const seen = list.data?.productions.flatMap((p) => (p.showName ? [p.showName] : [])) ?? [];
  if (seen.some((name) => !shows.includes(name))) setShows([...new Set([...shows, ...seen])].sort());

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'offset') next.delete('offset');
    setParams(next, { replace: true });
  };

  return (
    <>
      <PageHeader
        title="Productions"
        description="Episodes, livestreams, videos, articles and clip packages from the CRM. Open one to see its whole thread: guest, recording, broadcast, clips, posts and numbers."
      />
      <Panel title="By scheduled date">
        <div className="filters">
          <label className="filter filter-grow">
            <span className="field-label">Name</span>
            <input
              className="input"
              type="search"
              value={typed}
              placeholder="Episode 12"
              aria-label="Search productions by name"
              onChange={(event) => {
                setTyped(event.target.value);
                setParam('q', event.target.value.trim());
              }}
            />
          </label>
          <label className="filter">
            <span className="field-label">Show</span>
            <select
              className="input"
              value={show}
              aria-label="Filter by show"
              onChange={(event) => setParam('show', event.target.value)}
            >
              <option value="">All shows</option>
              {[...new Set([...shows, ...(show ? [show] : [])])].map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        </div>
        <QueryContent query={list} what="the productions" skeletonLines={6}>
          {(data) =>
            data.productions.length === 0 ? (
              <EmptyState title={q || show ? 'No production matches' : 'No productions yet'}>
                {q || show
                  ? 'Try another name or show.'
                  : 'Productions are the CRM’s ContentProduction records: create one there and it shows here.'}
              </EmptyState>
            ) : (
              <>
                <ul className="production-list" data-testid="production-list">
                  {data.productions.map((production) => (
                    <li key={production.id} className="production-row">
                      <a className="production-name" href={productionHash(production.id)}>
                        {production.name ?? '(unnamed)'}
                      </a>
                      <span className="production-meta small muted">
                        {[production.contentType, production.showName].filter(Boolean).join(' · ')}
                      </span>
                      <span className="production-when small">
                        {production.scheduledDate ? (
                          <LocalTime iso={production.scheduledDate} utc={false} />
                        ) : (
                          <span className="muted">not scheduled</span>
                        )}
                      </span>
                      {production.stage ? (
                        <StatusPill tone={stageTone(production.stage)}>{production.stage}</StatusPill>
                      ) : null}
                    </li>
                  ))}
                </ul>
                <div className="list-footer small">
                  <span className="muted">
                    {data.offset + 1}–{data.offset + data.productions.length} of {data.total}
                  </span>
                  <span className="button-row">
                    <button
                      type="button"
                      className="button button-small"
                      disabled={data.offset === 0}
                      onClick={() => setParam('offset', String(Math.max(0, data.offset - PAGE)))}
                    >
                      Newer
                    </button>
                    <button
                      type="button"
                      className="button button-small"
                      disabled={data.offset + data.productions.length >= data.total}
                      onClick={() => setParam('offset', String(data.offset + PAGE))}
                    >
                      Older
                    </button>
                  </span>
                </div>
              </>
            )
          }
        </QueryContent>
      </Panel>
    </>
  );
}
