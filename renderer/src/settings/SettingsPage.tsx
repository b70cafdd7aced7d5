import { useEffect, useState } from 'react';
import type { ResponseOf } from '../../../shared/api/contract.js';
import type { ConfigKey, getSettings, SettingEntry } from '../../../shared/api/settings.js';
import { keyStore } from '../api/auth/key-store.js';
import { useApiKey } from '../api/auth/use-api-key.js';
import { useHealth } from '../api/transport/health.js';
import { PageHeader } from '../components/PageHeader.js';
import { Panel } from '../components/Panel.js';
import { QueryContent } from '../components/QueryPanel.js';
import { StatusPill } from '../components/StatusPill.js';
import { useSearchParams } from '../hash-router.js';
import { useSettings } from './api.js';
import { FieldList, PeerSection, SettingsSection } from './PeerSection.js';
import { RenderingPanel } from './RenderingPanel.js';
import { SandboxPanel } from './SandboxPanel.js';
import { bridgeFields, peerSections, renderingFields } from './sections.js';
import type { SaveResult } from './SettingField.js';
import { WebhookBindingsPanel } from './WebhookBindingsPanel.js';

type SettingsData = ResponseOf<typeof getSettings>;

const sourceLabel: Record<SettingEntry['source'], string> = {
  env: 'environment',
  file: 'config file',
  default: 'default',
  generated: 'generated',
};

/** Every field's label in words, by config name. */
const labels: ReadonlyMap<ConfigKey, string> = new Map(
  [...peerSections.flatMap((section) => section.fields), ...bridgeFields, ...renderingFields].map((field) => [
    field.key,
    field.label,
  ]),
);

/**
 * Settings by peer (issue #41.1): one section per peer with its fields in words, what a restart
 * changes and Test connection; then clip rendering, webhook bindings, the sandbox and the bridge.
 * `?section=crm` scrolls to a section and focuses it (the Overview's first step links there).
 */
export function SettingsPage() {
  const settings = useSettings();
  const peers = useHealth().data?.peers;
  const [saved, setSaved] = useState<SaveResult | null>(null);
  const [params] = useSearchParams();
  const section = params.get('section');
  const loaded = settings.data !== undefined;
  useEffect(() => {
    if (!loaded || section === null) return;
    const target = document.getElementById(`settings-${section}`);
    target?.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  }, [loaded, section]);
  return (
    <>
      <PageHeader
        title="Settings"
        description="Each service the bridge talks to, with its settings in words. Values set in the environment win over the config file; changes here are written to the file and apply after a restart."
      />
      {saved ? <SavedBanner saved={saved} onDismiss={() => setSaved(null)} /> : null}
      <QueryContent query={settings} what="settings" skeletonLines={8}>
        {(data) => (
          <>
            <SectionLinks sandbox={data.sandbox} />
            {peerSections.map((peerSection) => (
              <PeerSection
                key={peerSection.id}
                section={peerSection}
                entries={data.settings}
                labels={labels}
                peer={peers?.[peerSection.id]}
                sandbox={data.sandbox}
                onSaved={setSaved}
              />
            ))}
            <div
              id="settings-rendering"
              className="settings-anchor"
              tabIndex={-1}
              data-testid="settings-section-rendering"
            >
              <RenderingPanel>
                <FieldList
                  fields={renderingFields}
                  entries={data.settings}
                  labels={labels}
                  onSaved={setSaved}
                />
              </RenderingPanel>
            </div>
            <div
              id="settings-webhooks"
              className="settings-anchor"
              tabIndex={-1}
              data-testid="settings-section-webhooks"
            >
              <WebhookBindingsPanel />
            </div>
            {data.sandbox ? (
              <div
                id="settings-sandbox"
                className="settings-anchor"
                tabIndex={-1}
                data-testid="settings-section-sandbox"
              >
                <SandboxPanel />
              </div>
            ) : null}
            <SettingsSection id="bridge" title="The bridge">
              <div className="grid grid-2">
                <ConfigFilePanel data={data} />
                <ApiKeyPanel entry={data.settings.find((entry) => entry.key === 'BRIDGE_API_KEY')} />
              </div>
              <FieldList fields={bridgeFields} entries={data.settings} labels={labels} onSaved={setSaved} />
            </SettingsSection>
          </>
        )}
      </QueryContent>
    </>
  );
}

/** The sections, as links: on a phone the page is long. */
function SectionLinks({ sandbox }: { sandbox: boolean }) {
  const links: [string, string][] = [
    ...peerSections.map((section): [string, string] => [section.id, section.title]),
    ['rendering', 'Clip rendering'],
    ['webhooks', 'Webhook bindings'],
    ...(sandbox ? [['sandbox', 'Sandbox'] satisfies [string, string]] : []),
    ['bridge', 'The bridge'],
  ];
  return (
    <nav className="section-links" aria-label="Settings sections">
      {links.map(([id, title]) => (
        <a key={id} href={`#/settings?section=${id}`}>
          {title}
        </a>
      ))}
    </nav>
  );
}

function SavedBanner({ saved, onDismiss }: { saved: SaveResult; onDismiss: () => void }) {
  const names = saved.written.map((key) => labels.get(key as ConfigKey) ?? key);
  return (
    <div
      className={`banner ${saved.restartRequired ? 'banner-warn' : 'banner-ok'}`}
      role="status"
      data-testid="settings-saved"
    >
      <div>
        <strong>{saved.restartRequired ? 'Restart required.' : 'Saved.'}</strong>{' '}
        {saved.written.length > 0
          ? `Written to the config file: ${names.join(', ')} (${saved.written.join(', ')}).`
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
