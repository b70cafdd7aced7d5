import { useState } from 'react';
import { suggestRecorderFilename } from '../../../shared/recorder-filename.js';
import type { ProductionSummary } from '../../../shared/api/productions.js';
import { useSearchParams } from '../hash-router.js';
import { Panel } from '../components/Panel.js';
import { ErrorText, Spinner } from '../components/States.js';
import { formatDateTime } from '../format.js';
import { useProductions } from '../productions/api.js';
import { ProductionLink } from '../productions/ProductionLink.js';
import { useNextProduction, useSetRecorderFilename } from './api.js';

type Chosen = Pick<ProductionSummary, 'id' | 'name' | 'scheduledDate'>;

/**
 * The next recording named from a production (issue #42.2): chosen from the CRM's productions, or
 * the next scheduled one; the name is the spec's `YYYYMMDD_<name>` of its scheduled day, and the
 * takes recorded under it belong to that production. Opened from a production's page with
 * `#/recorder?production=<id>`, that production is chosen.
 */
export function ProductionNamePanel() {
  const [params] = useSearchParams();
  const productions = useProductions({ limit: 50, offset: 0 });
  const next = useNextProduction();
  const save = useSetRecorderFilename();
  // Until the operator picks, the production the address names (`?production=`) is the one chosen.
  const [picked, setPicked] = useState<Chosen | null | undefined>(undefined);
  const asked = params.get('production');
  const listed = productions.data?.productions ?? [];
  const chosen =
    picked !== undefined ? picked : (listed.find((production) => production.id === asked) ?? null);

  const options = chosen && !listed.some((p) => p.id === chosen.id) ? [chosen, ...listed] : listed;
  const filename = chosen ? nameFor(chosen) : null;
  const choose = (production: Chosen | null) => {
    setPicked(production);
    save.reset();
  };

  return (
    <Panel
      title="Name from a production"
      testId="recorder-from-production"
      className="recorder-from-production"
    >
      <p className="muted small">
        The takes recorded under a name given from a production belong to it: they show on its page.
      </p>
      <div className="input-row">
        <label className="visually-hidden" htmlFor="recorder-production">
          Production
        </label>
        <select
          id="recorder-production"
          className="input"
          value={chosen?.id ?? ''}
          disabled={productions.isPending}
          onChange={(event) => choose(options.find((p) => p.id === event.target.value) ?? null)}
        >
          <option value="">{productions.isPending ? 'Loading productions…' : 'Choose a production'}</option>
          {options.map((production) => (
            <option key={production.id} value={production.id}>
              {production.name ?? production.id}
              {production.scheduledDate ? ` · ${formatDateTime(production.scheduledDate)}` : ''}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button"
          disabled={next.isPending}
          onClick={() =>
            next.mutate(undefined, {
              onSuccess: (answer) => {
                if (answer.production) choose(answer.production);
              },
            })
          }
        >
          {next.isPending ? <Spinner label="Reading the CRM…" /> : 'The next scheduled'}
        </button>
      </div>
      {next.isSuccess && next.data.production === null ? (
        <p className="muted small" role="status">
          No production is scheduled from an hour ago on: choose one from the list.
        </p>
      ) : null}
      {productions.isError ? (
        <p className="field-error" role="alert">
          The productions could not be read: <ErrorText error={productions.error} />
        </p>
      ) : null}
      {next.isError ? (
        <p className="field-error" role="alert">
          <ErrorText error={next.error} />
        </p>
      ) : null}
      {chosen && filename ? (
        <div className="recorder-from-production-name">
          <p className="small">
            The next recording will be named <code data-testid="recorder-production-name">{filename}</code>{' '}
            for <ProductionLink id={chosen.id} name={chosen.name ?? 'this production'} />
          </p>
          <button
            type="button"
            className="button button-primary"
            disabled={save.isPending}
            onClick={() => save.mutate({ filename, contentProductionId: chosen.id })}
          >
            {save.isPending ? <Spinner label="Saving…" /> : 'Set this name'}
          </button>
        </div>
      ) : null}
      {save.isError ? (
        <p className="field-error" role="alert">
          The bridge refused it: <ErrorText error={save.error} />
        </p>
      ) : null}
      {save.isSuccess ? (
        <p className="field-success" role="status" data-testid="recorder-production-saved">
          Set: the next recording will be named <code>{save.data.filename}</code>, and its takes belong to{' '}
          {chosen?.name ?? 'this production'}.
        </p>
      ) : null}
    </Panel>
  );
}

/** `YYYYMMDD_<name>` of its scheduled day (UTC), as the bridge names it for Companion; today when it has none. */
function nameFor(production: Chosen): string {
  const day = production.scheduledDate ? new Date(production.scheduledDate) : new Date();
  return suggestRecorderFilename(
    production.name ?? 'recording',
    Number.isNaN(day.getTime()) ? new Date() : day,
  );
}
