import { getSettings, testConnection, updateSettings, type ConfigKey } from '../../../shared/api/settings.js';
import {
  configIssueLine,
  readConfigFile,
  validateConfigValues,
  writeConfigFile,
} from '../../config/config.js';
import type { SecretStore } from '../../config/config.js';
import { secretOriginsOnSave } from '../../config/secret-origins.js';
import type { AreaContext, Mount } from '../area.js';
import { AppError } from '../../kernel/app-error.js';
import { testPeerConnection } from './connection-test.js';
import { routeTablePathInFile, settingEntries } from './entries.js';
import { testCredentials } from './test-credentials.js';

/** The Settings page: what is in force (masked) and writing the config file. */
export function settingsRoutes(
  mount: Mount,
  ctx: AreaContext,
  secretStore: SecretStore | undefined,
  sandboxControlKey: string | null,
): void {
  const { config } = ctx;
  /** The config file as saved now, to show what waits for a restart; null if it cannot be read (edited by hand into bad JSON). */
  const savedFile = () => {
    try {
      return readConfigFile(config.configPath, secretStore);
    } catch {
      return null;
    }
  };
  mount(getSettings, () => ({
    success: true,
    configPath: config.configPath,
    dataDir: config.dataDir,
    sandbox: config.sandbox,
    sandboxControlKey,
    settings: settingEntries(config, config.sandbox, savedFile()?.values ?? null),
  }));
  mount(updateSettings, ({ body }) => {
    const fromEnv = Object.keys(body.values).filter((key) => config.sources[key as ConfigKey] === 'env');
    if (fromEnv.length > 0) {
      throw AppError.validation(`values: ${fromEnv.join(', ')} set by the environment; change it there`);
    }
    if (body.values.PUBLISH_ROUTES !== undefined && routeTablePathInFile(config)) {
      throw AppError.validation(
        `values.PUBLISH_ROUTES: a file path set in the config file; change it by editing ${config.configPath}`,
      );
    }
    const current = readConfigFile(config.configPath, secretStore);
    const next = { ...current.values };
    for (const [key, value] of Object.entries(body.values) as [ConfigKey, string][]) {
      if (value === '') delete next[key];
      else next[key] = value;
    }
    // A secret stays with the origin it was saved for (issue #35.3): a move elsewhere is refused, not cleared.
    const origins = secretOriginsOnSave({
      request: body.values,
      next,
      saved: current.secretOrigins,
      running: config,
    });
    const issues = [...validateConfigValues(next), ...origins.issues];
    // details: [{field, rule, message}] like every other 400, so the dashboard can put them in words.
    if (issues.length > 0) throw AppError.validation(issues.map(configIssueLine).join('; '), issues);
    writeConfigFile(config.configPath, { values: next, secretOrigins: origins.stored }, secretStore);
    const written = Object.keys(body.values);
    ctx.activity.record(
      'settings.updated',
      'info',
      `settings saved: ${written.join(', ')} (restart to apply)`,
      {
        keys: written,
      },
    );
    return { success: true, restartRequired: true, written };
  });
  // Saves nothing and changes nothing in force: what the peer answered is the answer, a failure too.
  mount(testConnection, async ({ body }) => ({
    success: true,
    ...(await testPeerConnection(body.peer, testCredentials(body, config, savedFile()))),
  }));
}
