import { useState, type FormEvent } from 'react';
import type { ResponseOf } from '../../../shared/api/contract.js';
import { isInlineRouteTable } from '../../../shared/api/settings.js';
import type { ConfigKey, SettingEntry, updateSettings } from '../../../shared/api/settings.js';
import { ApiError, errorMessage } from '../api/transport/client.js';
import { isProblem, problemsInWords } from '../api/words.js';
import { Spinner } from '../components/States.js';
import { useUpdateSettings } from './api.js';
import type { FieldWords } from './sections.js';

export type SaveResult = ResponseOf<typeof updateSettings>;

const sourceWords: Record<Exclude<SettingEntry['source'], 'default'>, string> = {
  env: 'set by the environment',
  file: 'from the config file',
  generated: 'generated at first start',
};

/**
 * One setting in words (issue #41.1): its label, the value in force (secrets masked), where it comes
 * from, what waits for a restart, and the config name in small print for integrators. Edit opens a
 * form in place.
 */
export function SettingField({
  field,
  entry,
  labels,
  editable,
  onSaved,
}: {
  field: FieldWords;
  entry: SettingEntry | undefined;
  /** Every field's label, to name a secret asked for again in words. */
  labels: ReadonlyMap<ConfigKey, string>;
  editable: ReadonlySet<ConfigKey>;
  onSaved: (saved: SaveResult) => void;
}) {
  const [editing, setEditing] = useState(false);
  if (!entry) return null;
  return (
    <div className={`setting-field${editing ? ' editing' : ''}`} data-testid={`setting-${entry.key}`}>
      <div className="setting-head">
        <span className="setting-label" data-testid="setting-label" id={`label-${entry.key}`}>
          {field.label}
        </span>
        {entry.secret ? <span className="tag-secret">secret</span> : null}
        <code
          className="setting-env-name"
          data-testid="setting-env-name"
          title="Its name in the environment and the config file"
        >
          {entry.key}
        </code>
      </div>
      {editing ? (
        <EditForm
          entry={entry}
          field={field}
          labels={labels}
          editable={editable}
          onDone={(saved) => {
            setEditing(false);
            if (saved) onSaved(saved);
          }}
        />
      ) : (
        <div className="setting-body">
          <div className="setting-value">
            <SettingValue entry={entry} />
            {entry.source === 'default' ? null : (
              <span className="setting-source muted small"> · {sourceWords[entry.source]}</span>
            )}
          </div>
          <FieldAction entry={entry} onEdit={() => setEditing(true)} />
        </div>
      )}
      {!editing && field.hint ? <p className="setting-hint">{field.hint}</p> : null}
      {!editing && entry.note ? (
        <p className="setting-note" data-testid="setting-note">
          {entry.note}
        </p>
      ) : null}
    </div>
  );
}

function FieldAction({ entry, onEdit }: { entry: SettingEntry; onEdit: () => void }) {
  // "set by the environment" is said beside the value.
  if (entry.source === 'env') return null;
  if (!entry.editable)
    return (
      <span className="muted small" title="Change it in the config file">
        read-only
      </span>
    );
  return (
    <button
      type="button"
      className="button button-small"
      onClick={onEdit}
      aria-describedby={`label-${entry.key}`}
    >
      Edit
    </button>
  );
}

/**
 * The value in force; or, after a save that waits for a restart, the value saved (masked like any
 * secret), marked so, with the value still running beside it (the bridge reports both).
 */
function SettingValue({ entry }: { entry: SettingEntry }) {
  const unset = <span className="muted">{entry.source === 'default' ? 'default' : 'not set'}</span>;
  if (entry.pending === null) {
    return (
      <span className="mono" data-testid="setting-value">
        {entry.value ?? <span className="muted">not set</span>}
      </span>
    );
  }
  return (
    <>
      <span className="mono" data-testid="setting-value">
        {entry.pending.value ?? <span className="muted">removed (default)</span>}
      </span>
      <span
        className="tag-pending"
        data-testid="setting-pending"
        title="Written to the config file; the bridge uses it after a restart"
      >
        saved — takes effect after restart
      </span>
      <span className="setting-running" data-testid="setting-running">
        running: {entry.value === null ? unset : <span className="mono">{entry.value}</span>}
      </span>
    </>
  );
}

/**
 * The secrets the bridge asks for again before it moves their peer to another address (issue
 * #35.3: a secret goes only where it was saved for): the fields of its `secret-origin` refusals that
 * Settings can write.
 */
function secretsAskedAgain(error: unknown, editable: ReadonlySet<ConfigKey>): ConfigKey[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return [];
  return error.details.filter(isProblem).flatMap(({ field, rule }) => {
    const key = [...editable].find((candidate) => candidate === field);
    return rule === 'secret-origin' && key !== undefined ? [key] : [];
  });
}

function EditForm({
  entry,
  field,
  labels,
  editable,
  onDone,
}: {
  entry: SettingEntry;
  field: FieldWords;
  labels: ReadonlyMap<ConfigKey, string>;
  editable: ReadonlySet<ConfigKey>;
  onDone: (saved: SaveResult | null) => void;
}) {
  // Secrets arrive masked: start empty rather than saving the mask back.
  const [value, setValue] = useState(entry.secret ? '' : (entry.value ?? ''));
  // Secrets to send along (a peer moved elsewhere needs its key again in the same save).
  const [asked, setAsked] = useState<ConfigKey[]>([]);
  const [again, setAgain] = useState<Partial<Record<ConfigKey, string>>>({});
  const update = useUpdateSettings();

  // The bridge reads no file named from here (a path would let the API read the host's files).
  const routesPath = entry.key === 'PUBLISH_ROUTES' && value.trim() !== '' && !isInlineRouteTable(value);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (routesPath) return;
    const along = Object.fromEntries(Object.entries(again).filter(([, secret]) => secret !== ''));
    update.mutate(
      { [entry.key]: value, ...along },
      {
        onSuccess: (result) => onDone(result),
        onError: (error) => {
          const named = secretsAskedAgain(error, editable);
          setAsked((shown) => [...shown, ...named.filter((key) => !shown.includes(key))]);
        },
      },
    );
  }

  const formId = `edit-${entry.key}`;
  return (
    <form id={formId} onSubmit={submit} className="edit-form">
      <input
        className="input mono"
        type={entry.secret ? 'password' : 'text'}
        value={value}
        autoFocus
        autoComplete="off"
        spellCheck={false}
        placeholder={
          entry.secret ? 'new value (leave empty to remove from the file)' : 'empty removes it from the file'
        }
        onChange={(event) => {
          setValue(event.target.value);
          update.reset();
        }}
        onKeyDown={(event) => {
          // Escape leaves the value as it was, like Cancel.
          if (event.key === 'Escape') {
            event.preventDefault();
            onDone(null);
          }
        }}
        aria-label={`${field.label}: new value`}
        aria-invalid={update.isError}
        aria-describedby={update.isError ? `${formId}-error` : undefined}
      />
      <p className="muted small">
        Saved to the config file; the bridge uses it after a restart · Escape cancels
      </p>
      {asked.length > 0 ? (
        <p className="muted small">
          A key is sent only to the address it was saved for: enter it again to send it to the new one.
        </p>
      ) : null}
      {asked.map((key) => (
        <input
          key={key}
          className="input mono"
          type="password"
          value={again[key] ?? ''}
          autoComplete="off"
          spellCheck={false}
          placeholder={`${labels.get(key) ?? key} for the new address`}
          onChange={(event) => {
            setAgain((values) => ({ ...values, [key]: event.target.value }));
            update.reset();
          }}
          aria-label={`${labels.get(key) ?? key} for the new address`}
        />
      ))}
      {routesPath ? (
        <p className="field-error" role="alert">
          Enter the route table itself, as JSON starting with {'{'}. A file path can only be set in the
          environment or in the config file.
        </p>
      ) : null}
      {update.isError ? (
        <p className="field-error" role="alert" id={`${formId}-error`}>
          {settingErrorWords(update.error, labels)}
        </p>
      ) : null}
      <div className="form-actions">
        <button
          type="submit"
          className="button button-primary button-small"
          disabled={update.isPending || routesPath}
        >
          {update.isPending ? <Spinner /> : 'Save'}
        </button>
        <button type="button" className="button button-ghost button-small" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The bridge's refusal with each setting named by its label, not its config key (the key is the small print). */
function settingErrorWords(error: unknown, labels: ReadonlyMap<ConfigKey, string>): string {
  // The refusal names fields as strings; a field that is no setting keeps its own words.
  const byField: ReadonlyMap<string, string> = labels;
  const named =
    error instanceof ApiError ? problemsInWords(error.details, (field) => byField.get(field)) : null;
  return named ?? errorMessage(error);
}
