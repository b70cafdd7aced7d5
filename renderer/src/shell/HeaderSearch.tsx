import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  search,
  SEARCH_QUERY_MAX,
  SEARCH_QUERY_MIN,
  searchKinds,
  type SearchKind,
  type SearchResult,
} from '../../../shared/api/search.js';
import { callApi, errorMessage } from '../api/transport/client.js';
import { queryKeys } from '../api/transport/query-keys.js';
import { Icon } from '../components/Icon.js';
import { useDebouncedValue } from '../use-debounced-value.js';
import './header-search.css';

const groupLabels: Record<SearchKind, string> = {
  production: 'Productions',
  guest: 'Guests',
  post: 'Posts',
  take: 'Takes',
  broadcast: 'Broadcasts',
};

function useSearch(text: string) {
  const q = useDebouncedValue(text.trim(), 250);
  const enabled = q.length >= SEARCH_QUERY_MIN;
  const query = useQuery({
    queryKey: [...queryKeys.search, q],
    queryFn: ({ signal }) => callApi(search, { signal, query: { q } }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  return { query, enabled, settled: q === text.trim() };
}

/**
 * The header's search (issue #42.3): productions, guests, posts, takes and broadcasts as one types,
 * grouped by kind; a combobox whose list is navigated with the arrow keys, opened with Enter, closed
 * with Escape. At 390 px an icon opens a field across the header.
 */
export function HeaderSearch() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const { query, enabled, settled } = useSearch(text);
  // In the order the groups are shown, so the arrow keys walk them as read.
  const results = useMemo(
    () =>
      enabled
        ? searchKinds.flatMap((kind) => (query.data?.results ?? []).filter((result) => result.kind === kind))
        : [],
    [enabled, query.data],
  );
  const listShown = open && text.trim().length >= SEARCH_QUERY_MIN;
  const optionId = (index: number) => `${id}-option-${index}`;

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const go = (result: SearchResult) => {
    window.location.hash = result.href;
    setText('');
    close();
    setExpanded(false);
    input.current?.blur();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (results.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (index + step + results.length) % results.length);
    } else if (event.key === 'Enter') {
      const chosen = results[active] ?? (results.length > 0 && settled ? results[0] : undefined);
      if (chosen) {
        event.preventDefault();
        go(chosen);
      }
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (listShown) close();
      else if (text !== '') setText('');
      else {
        setExpanded(false);
        input.current?.blur();
      }
    }
  };

  return (
    <div className={`header-search ${expanded ? 'header-search-expanded' : ''}`.trim()}>
      <button
        type="button"
        className="header-search-toggle"
        aria-label="Search"
        aria-expanded={expanded}
        onClick={() => {
          setExpanded(true);
          // The field is shown by this render; focus it once it is.
          requestAnimationFrame(() => input.current?.focus());
        }}
      >
        <Icon name="search" size={16} />
      </button>
      <div className="header-search-field" role="search">
        <Icon name="search" size={16} />
        <input
          ref={input}
          type="search"
          className="header-search-input"
          placeholder="Search episodes, guests, posts, takes…"
          aria-label="Search productions, guests, posts, takes and broadcasts"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={listShown}
          aria-controls={`${id}-list`}
          aria-activedescendant={listShown && active >= 0 ? optionId(active) : undefined}
          maxLength={SEARCH_QUERY_MAX}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            close();
            if (text === '') setExpanded(false);
          }}
          onKeyDown={onKeyDown}
        />
        {listShown ? (
          <div className="header-search-popover" data-testid="header-search-results">
            <SearchState query={query} settled={settled} count={results.length} text={text.trim()} />
            {query.data?.missing.map((missing) => (
              <p key={missing.reason} className="header-search-note" role="status">
                {missing.reason}
              </p>
            ))}
            <div role="listbox" id={`${id}-list`} aria-label="Search results" className="header-search-list">
              {searchKinds.map((kind) => {
                const ofKind = results.flatMap((result, at) =>
                  result.kind === kind ? [{ result, at }] : [],
                );
                if (ofKind.length === 0) return null;
                return (
                  <div role="group" key={kind} aria-labelledby={`${id}-${kind}`}>
                    <div className="header-search-group" id={`${id}-${kind}`} role="presentation">
                      {groupLabels[kind]}
                    </div>
                    {ofKind.map(({ result, at }) => {
                      return (
                        <div
                          key={`${kind}-${result.id}`}
                          id={optionId(at)}
                          role="option"
                          aria-selected={at === active}
                          className="header-search-option"
                          data-kind={kind}
                          onMouseDown={(event) => event.preventDefault()}
                          onMouseEnter={() => setActive(at)}
                          onClick={() => go(result)}
                        >
                          <span className="header-search-title">{result.title}</span>
                          {result.context ? (
                            <span className="header-search-context">{result.context}</span>
                          ) : null}
                        </div>
                      );
                    })}
                  </div>
                );
              })}
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
}

function SearchState({
  query,
  settled,
  count,
  text,
}: {
  query: ReturnType<typeof useSearch>['query'];
  settled: boolean;
  count: number;
  text: string;
}) {
  if (query.isError) {
    return (
      <p className="header-search-note" role="alert">
        The search failed: {errorMessage(query.error)}
      </p>
    );
  }
  if (!settled || query.isFetching) {
    return count === 0 ? (
      <p className="header-search-note" role="status">
        Searching…
      </p>
    ) : null;
  }
  if (count === 0) {
    return (
      <p className="header-search-note" role="status">
        Nothing found for “{text}”.
      </p>
    );
  }
  return (
    <p className="visually-hidden" role="status">
      {count === 1 ? '1 result' : `${count} results`}
    </p>
  );
}
