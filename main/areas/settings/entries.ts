import {
  configKeys,
  isInlineRouteTable,
  programPathKeys,
  secretConfigKeys,
  type ConfigKey,
  type SettingEntry,
} from '../../../shared/api/settings.js';
import { configDescriptions, maskSecret, SECRET_MASK, type BridgeConfig } from '../../config/config.js';
import { originOf, peerOfSecret, peerSecretKeys } from '../../config/secret-origins.js';

/** Secrets that hold several comma-separated values: no part of any of them is shown. */
const secretLists: ReadonlySet<ConfigKey> = new Set<ConfigKey>(['CRM_WEBHOOK_SECRETS']);

/** True when the config file sets PUBLISH_ROUTES to a path: only the operator changes that, in the file. */
export function routeTablePathInFile(config: BridgeConfig): boolean {
  const routes = config.values.PUBLISH_ROUTES;
  return config.sources.PUBLISH_ROUTES === 'file' && routes !== undefined && !isInlineRouteTable(routes);
}

/** What the operator may see of a value: secrets masked, a list of secrets not even its last digits. */
function shown(key: ConfigKey, value: string | null): string | null {
  if (value === null || !secretConfigKeys.has(key)) return value;
  return secretLists.has(key) ? SECRET_MASK : maskSecret(value);
}

/**
 * The value saved for `key` that a restart would bring into force, when it differs from the
 * one running. Env wins over the file, so a key set by the environment has none. `file` is the
 * config file as it is now (null when it cannot be read: then nothing is claimed as pending).
 */
function pendingValue(
  config: BridgeConfig,
  key: ConfigKey,
  file: Partial<Record<ConfigKey, string>> | null,
): SettingEntry['pending'] {
  const source = config.sources[key];
  if (file === null || source === 'env') return null;
  const runningFromFile = source === 'file' || source === 'generated' ? config.values[key] : undefined;
  const saved = file[key];
  return saved === runningFromFile ? null : { value: shown(key, saved ?? null) };
}

/** The Settings page's rows: values in force (secrets masked), where they come from, what may change, what waits for a restart. */
export function settingEntries(
  config: BridgeConfig,
  sandbox: boolean,
  file: Partial<Record<ConfigKey, string>> | null,
): SettingEntry[] {
  return configKeys.map((key) => {
    const value = config.values[key] ?? null;
    const secret = secretConfigKeys.has(key);
    const { editable, note } = editability(config, key);
    return {
      key,
      value: shown(key, value),
      secret,
      source: config.sources[key],
      description: configDescriptions[key],
      editable,
      note: joinNotes(
        secretLists.has(key) ? countNote(value) : null,
        note,
        sandboxNote(key, value, sandbox),
        refusedKeyNote(config, key),
      ),
      pending: pendingValue(config, key, file),
    };
  });
}

function editability(config: BridgeConfig, key: ConfigKey): { editable: boolean; note: string | null } {
  // The source column already says "environment", and the page where to change it.
  if (config.sources[key] === 'env') return { editable: false, note: null };
  if ((programPathKeys as readonly ConfigKey[]).includes(key)) {
    return {
      editable: false,
      note: `A program the bridge runs: set it in the environment or in ${config.configPath}.`,
    };
  }
  if (key === 'PUBLISH_ROUTES' && routeTablePathInFile(config)) {
    return {
      editable: false,
      note: `A file path set in the config file: change it by editing ${config.configPath}.`,
    };
  }
  return { editable: true, note: null };
}

function countNote(value: string | null): string | null {
  if (value === null) return null;
  const count = value.split(',').filter((part) => part.trim() !== '').length;
  return count === 1 ? '1 secret set.' : `${count} secrets set.`;
}

/** In sandbox mode the simulated CRM signs its webhooks: with the first configured secret, or a generated one. */
function sandboxNote(key: ConfigKey, value: string | null, sandbox: boolean): string | null {
  if (sandbox && key === 'RECORDER_OBS_URL' && value === null)
    return 'Sandbox: the bridge uses its simulated OBS; none turns the recorder off.';
  if (!sandbox || key !== 'CRM_WEBHOOK_SECRETS') return null;
  return value === null
    ? 'Sandbox: the simulated CRM signs its webhooks with a secret generated at each start.'
    : 'Sandbox: the simulated CRM signs its webhooks with the first one.';
}

/** A saved secret the bridge does not send, its peer pointed elsewhere by the environment (issue #35.3). */
function refusedKeyNote(config: BridgeConfig, key: ConfigKey): string | null {
  const peer = peerOfSecret(key);
  const savedFor = peer === null ? undefined : config.refusedKeys[peer];
  if (peer === null || savedFor === undefined || config.sources[key] !== 'file') return null;
  const { url } = peerSecretKeys[peer];
  return `Not sent: saved for ${savedFor}, and ${url} points to ${originOf(config.values[url])}. Set it again to send a key there.`;
}

function joinNotes(...notes: (string | null)[]): string | null {
  const present = notes.filter((note): note is string => note !== null);
  return present.length > 0 ? present.join(' ') : null;
}
