import { useState } from 'react';
import { columnLabels } from '../components/column-labels.js';
import type { FormEvent } from 'react';
import type { ResponseOf } from '../../../shared/api/contract.js';
import { isInlineRouteTable } from '../../../shared/api/settings.js';
import type { ConfigKey, getSettings, SettingEntry, updateSettings } from '../../../shared/api/settings.js';
import { ApiError, errorMessage } from '../api/transport/client.js';
import { isProblem } from '../api/words.js';
import { keyStore } from '../api/auth/key-store.js';
import { useSettings, useUpdateSettings } from './api.js';
import { useApiKey } from '../api/auth/use-api-key.js';
import { RenderingPanel } from './RenderingPanel.js';
import { SandboxPanel } from './SandboxPanel.js';
import { WebhookBindingsPanel } from './WebhookBindingsPanel.js';
import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { EmptyState, Spinner } from '../components/States.js';
import { StatusPill } from '../components/StatusPill.js';
import type { Tone } from '../components/StatusPill.js';
import { PeerStatePill } from '../components/PeerStatePill.js';
import { useHealth } from '../api/transport/health.js';
import type { HealthResponse, PeerName } from '../../../shared/api/health.js';

type SettingsData = ResponseOf<typeof getSettings>;
type SaveResult = ResponseOf<typeof updateSettings>;

/** The address setting of each peer: its row says the peer's state beside the address. */
const peerOfAddress: Partial<Record<ConfigKey, PeerName>> = {
  CRM_URL: 'crm',
  POSTSVC_URL: 'postsvc',
  GATEWAY_URL: 'gateway',
  AUTOMATION_URL: 'automation',
  RECORDER_OBS_URL: 'obs',
};

const sourceTone: Record<SettingEntry['source'], Tone> = {
  env: 'info',
  file: 'ok',
  default: 'neutral',
  generated: 'neutral',
};
const sourceLabel: Record<SettingEntry['source'], string> = {
  env: 'environment',
  file: 'config file',
  default: 'default',
  generated: 'generated',
};

export function SettingsPage() {
  const settings = useSettings();
  const peers = useHealth().data?.peers;
  const [saved, setSaved] = useState<SaveResult | null>(null);
  return (
    <>
      <PageHeader
        title="Settings"
        description="Configuration in force. Values set in the environment win over the config file; changes here are written to the file."
      />
      {saved ? <SavedBanner saved={saved} onDismiss={() => setSaved(null)} /> : null}
      <QueryContent query={settings} what="settings" skeletonLines={8}>
        {(data) => (
          <>
            <div className="grid grid-2">
              <ConfigFilePanel data={data} />
              <ApiKeyPanel entry={data.settings.find((entry) => entry.key === 'BRIDGE_API_KEY')} />
            </div>
            <Panel title="Configuration" testId="settings-table">
              {data.settings.length === 0 ? (
                <EmptyState title="No settings reported" />
              ) : (
                <SettingsTable entries={data.settings} peers={peers} onSaved={setSaved} />
              )}
            </Panel>
            <RenderingPanel />
            {data.sandbox ? <SandboxPanel /> : null}
            <WebhookBindingsPanel />
          </>
        )}
      </QueryContent>
    </>
  );
}

function SavedBanner({ saved, onDismiss }: { saved: SaveResult; onDismiss: () => void }) {
  return (
    <div
      className={`banner ${saved.restartRequired ? 'banner-warn' : 'banner-ok'}`}
      role="status"
      data-testid="settings-saved"
    >
      <div>
        <strong>{saved.restartRequired ? 'Restart required.' : 'Saved.'}</strong>{' '}
        {saved.written.length > 0
          ? `Written to the config file: ${saved.written.join(', ')}.`
          : 'Nothing changed.'}
        {saved.restartRequired ? ' The bridge uses the new values after it is restarted.' : null}
      </div>
      <button type="button" className="button button-ghost button-small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

function ConfigFilePanel({ data }: { data: SettingsData }) {
  return (
    <Panel title="Where the configuration lives">
      <dl className="facts facts-wide">
        <dt>Config file</dt>
        <dd className="mono break" data-testid="config-path">
          {data.configPath}
        </dd>
        <dt>Data directory</dt>
        <dd className="mono break">{data.dataDir}</dd>
        <dt>Peers</dt>
        <dd>
          {data.sandbox ? <StatusPill tone="info">Sandbox (simulated peers)</StatusPill> : 'Real peers'}
        </dd>
      </dl>
      <p className="muted small">
        Headless, the file is written readable by its owner only. Environment variables given at start-up
        override it.
      </p>
    </Panel>
  );
}

function ApiKeyPanel({ entry }: { entry: SettingEntry | undefined }) {
  const { key, source } = useApiKey();
  const ending = key ? `••••${key.slice(-4)}` : null;
  return (
    <Panel title="API key">
      <dl className="facts facts-wide">
        <dt>Bridge key</dt>
        <dd className="mono">{entry?.value ?? 'not reported'}</dd>
        <dt>Set by</dt>
        <dd>{entry ? sourceLabel[entry.source] : '—'}</dd>
        <dt>This dashboard</dt>
        <dd>
          {ending ? <span className="mono">{ending}</span> : '—'}{' '}
          <span className="muted small">
            {source === 'desktop' ? '(from the desktop app)' : '(kept in this browser)'}
          </span>
        </dd>
      </dl>
      <p className="muted small">
        Callers send it as <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-Api-Key</code>. The full
        key is never shown here: read it from the config file or the environment the bridge was started with.
      </p>
      {source === 'browser' ? (
        <button type="button" className="button button-start" onClick={() => keyStore.clear()}>
          Forget the key in this browser
        </button>
      ) : null}
    </Panel>
  );
}

function SettingsTable({
  entries,
  peers,
  onSaved,
}: {
  entries: readonly SettingEntry[];
  peers: HealthResponse['peers'];
  onSaved: (saved: SaveResult) => void;
}) {
  const [editing, setEditing] = useState<ConfigKey | null>(null);
  const editableKeys = new Set(entries.filter((entry) => entry.editable).map((entry) => entry.key));
  return (
    <div className="table-wrap">
      <table ref={columnLabels} className="table settings">
        <thead>
          <tr>
            <th>Key</th>
            <th>Value</th>
            <th>Source</th>
            <th>Description</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) =>
            editing === entry.key ? (
              <EditRow
                key={entry.key}
                entry={entry}
                editable={editableKeys}
                onDone={(saved) => {
                  setEditing(null);
                  if (saved) onSaved(saved);
                }}
              />
            ) : (
              <tr key={entry.key} data-testid={`setting-${entry.key}`}>
                <td className="mono setting-key">
                  {entry.key}
                  {entry.secret ? <span className="tag-secret">secret</span> : null}
                </td>
                <td className="setting-value">
                  <SettingValue entry={entry} />
                  {entry.note ? (
                    <span className="setting-note" data-testid="setting-note">
                      {entry.note}
                    </span>
                  ) : null}
                  <PeerStateNote peer={peerAt(peers, entry.key)} value={entry.value} />
                </td>
                <td>
                  <StatusPill tone={sourceTone[entry.source]}>{sourceLabel[entry.source]}</StatusPill>
                </td>
                <td className="setting-description">{entry.description}</td>
                <td className="cell-actions">
                  {entry.source === 'env' ? (
                    <span
                      className="muted small"
                      title="Set by an environment variable: change it where the bridge is started"
                    >
                      set by env
                    </span>
                  ) : !entry.editable ? (
                    <span className="muted small" title="Change it in the config file">
                      read-only
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => setEditing(entry.key)}
                      disabled={editing !== null}
                    >
                      Edit
                    </button>
                  )}
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

function peerAt(peers: HealthResponse['peers'], key: ConfigKey) {
  const name = peerOfAddress[key];
  return name === undefined ? undefined : peers?.[name];
}

/**
 * Beside a configured peer's address: its state in the one word (its last error in the title while
 * it is not reachable), and the address in use when the setting is not what sets it (the sandbox).
 */
function PeerStateNote({ peer, value }: { peer: ReturnType<typeof peerAt>; value: string | null }) {
  if (!peer?.configured) return null;
  const title = peer.state !== 'reachable' && peer.lastError ? { title: peer.lastError } : {};
  return (
    <span className="setting-peer-state" data-testid="setting-peer-state">
      <PeerStatePill peer={peer} {...title} />
      {peer.url !== null && peer.url !== value ? (
        <span className="muted small mono" data-testid="setting-peer-url">
          {' '}
          at {peer.url}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The value cell: the value in force; or, after a save that waits for a restart, the value saved
 * (masked like any secret), marked so, with the value still running beside it (the bridge
 * reports both, so a reload shows the same).
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

function EditRow({
  entry,
  editable,
  onDone,
}: {
  entry: SettingEntry;
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
    <tr className="editing" data-testid={`setting-${entry.key}`}>
      <td className="mono setting-key">
        {entry.key}
        {entry.secret ? <span className="tag-secret">secret</span> : null}
      </td>
      <td colSpan={3}>
        <form id={formId} onSubmit={submit} className="edit-form">
          <input
            className="input mono"
            type={entry.secret ? 'password' : 'text'}
            value={value}
            autoFocus
            autoComplete="off"
            spellCheck={false}
            placeholder={
              entry.secret
                ? 'new value (leave empty to remove from the file)'
                : 'empty removes it from the file'
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
            aria-label={`New value for ${entry.key}`}
            aria-invalid={update.isError}
            aria-describedby={update.isError ? `${formId}-error` : undefined}
          />
          <p className="muted small">{entry.description} · Escape cancels</p>
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
              placeholder={`${key} for the new address`}
              onChange={(event) => {
                setAgain((values) => ({ ...values, [key]: event.target.value }));
                update.reset();
              }}
              aria-label={`${key} for the new address`}
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
              {errorMessage(update.error)}
            </p>
          ) : null}
        </form>
      </td>
      <td className="cell-actions">
        <button
          type="submit"
          form={formId}
          className="button button-primary button-small"
          disabled={update.isPending || routesPath}
        >
          {update.isPending ? <Spinner /> : 'Save'}
        </button>
        <button type="button" className="button button-ghost button-small" onClick={() => onDone(null)}>
          Cancel
        </button>
      </td>
    </tr>
  );
}
