import type { ReactNode } from 'react';
import type { PeerHealth } from '../../../shared/api/health.js';
import type { ConfigKey, SettingEntry } from '../../../shared/api/settings.js';
import { PeerStatePill } from '../components/PeerStatePill.js';
import { ConnectionTest } from './ConnectionTest.js';
import { SettingField, type SaveResult } from './SettingField.js';
import type { FieldWords, PeerSectionWords } from './sections.js';

/** A section of the page `?section=<id>` scrolls to and focuses. */
export function SettingsSection({
  id,
  title,
  aside,
  children,
}: {
  id: string;
  title: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      id={`settings-${id}`}
      className="panel settings-section"
      tabIndex={-1}
      aria-labelledby={`settings-${id}-title`}
      data-testid={`settings-section-${id}`}
    >
      <header className="panel-header">
        <h2 className="panel-title" id={`settings-${id}-title`}>
          {title}
        </h2>
        {aside ? <div className="panel-actions">{aside}</div> : null}
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}

/** The fields of a section, in words. */
export function FieldList({
  fields,
  entries,
  labels,
  onSaved,
}: {
  fields: readonly FieldWords[];
  entries: readonly SettingEntry[];
  labels: ReadonlyMap<ConfigKey, string>;
  onSaved: (saved: SaveResult) => void;
}) {
  const editable = new Set(entries.filter((entry) => entry.editable).map((entry) => entry.key));
  return (
    <div className="setting-fields">
      {fields.map((field) => (
        <SettingField
          key={field.key}
          field={field}
          entry={entries.find((entry) => entry.key === field.key)}
          labels={labels}
          editable={editable}
          onSaved={onSaved}
        />
      ))}
      <RestartNote fields={fields} entries={entries} />
    </div>
  );
}

/**
 * What a restart will change in this section (issue #41.1). Every value saved here is read at start
 * (PUT /api/settings writes the config file only), so none applies at once; values set by the
 * environment win over the file at every start.
 */
function RestartNote({
  fields,
  entries,
}: {
  fields: readonly FieldWords[];
  entries: readonly SettingEntry[];
}) {
  const of = (field: FieldWords) => entries.find((entry) => entry.key === field.key);
  const pending = fields.flatMap((field) => {
    const entry = of(field);
    if (!entry?.pending) return [];
    return [
      `${field.label} ${entry.pending.value === null ? 'goes back to its default' : `becomes ${entry.pending.value}`}`,
    ];
  });
  const fromEnv = fields.filter((field) => of(field)?.source === 'env').map((field) => field.label);
  return (
    <p className="restart-note" data-testid="restart-note">
      {pending.length > 0 ? (
        <strong>A restart will change: {pending.join('; ')}. </strong>
      ) : (
        'Nothing saved here waits for a restart: the values shown are in force. '
      )}
      Changes saved here apply when the bridge restarts; none applies at once.
      {fromEnv.length > 0
        ? ` ${fromEnv.join(', ')}: set by the environment, which wins over this page at every start; change ${fromEnv.length === 1 ? 'it' : 'them'} where the bridge is started.`
        : ''}
    </p>
  );
}

/** A peer's section: its state, its fields, what a restart changes, and Test connection. */
export function PeerSection({
  section,
  entries,
  labels,
  peer,
  sandbox,
  onSaved,
}: {
  section: PeerSectionWords;
  entries: readonly SettingEntry[];
  labels: ReadonlyMap<ConfigKey, string>;
  peer: PeerHealth | undefined;
  sandbox: boolean;
  onSaved: (saved: SaveResult) => void;
}) {
  const urlKey = section.fields[0]!.key;
  const setting = entries.find((entry) => entry.key === urlKey)?.value ?? null;
  const urlInForce = peer?.configured ? peer.url : setting === 'none' ? null : setting;
  const simulated = sandbox && peer?.url !== null && peer?.url !== undefined && peer.url !== setting;
  return (
    <SettingsSection
      id={section.id}
      title={section.title}
      aside={
        peer ? (
          <span data-testid="setting-peer-state">
            <PeerStatePill
              peer={peer}
              {...(peer.state !== 'reachable' && peer.lastError ? { title: peer.lastError } : {})}
            />
          </span>
        ) : null
      }
    >
      <p className="muted small section-purpose">
        {section.purpose}
        {simulated
          ? ' In the sandbox its simulator stands in: what is set here is used once the sandbox is off.'
          : ''}
      </p>
      <FieldList fields={section.fields} entries={entries} labels={labels} onSaved={onSaved} />
      <ConnectionTest section={section} urlInForce={urlInForce} />
    </SettingsSection>
  );
}
