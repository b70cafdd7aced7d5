import {
  configKeys,
  getSettings,
  secretConfigKeys,
  updateSettings,
  type ConfigKey,
} from '../../../shared/api/settings.js';
import {
  configDescriptions,
  configIssueLine,
  maskSecret,
  readConfigFile,
  validateConfigValues,
  writeConfigFile,
} from '../../config/config.js';
import type { SecretStore } from '../../config/config.js';
import type { AreaContext, Mount } from '../area.js';
import { AppError } from '../../kernel/app-error.js';

/** The Settings page: what is in force (masked) and writing the config file. */
export function settingsRoutes(mount: Mount, ctx: AreaContext, secretStore?: SecretStore): void {
  const { config } = ctx;
  mount(getSettings, () => ({
    success: true,
    configPath: config.configPath,
    dataDir: config.dataDir,
    sandbox: ctx.demo !== null,
    settings: configKeys.map((key) => {
      const value = config.values[key] ?? null;
      const secret = secretConfigKeys.has(key);
      return {
        key,
        value: value === null ? null : secret ? maskSecret(value) : value,
        secret,
        source: config.sources[key],
        description: configDescriptions[key],
      };
    }),
  }));
  mount(updateSettings, ({ body }) => {
    const fromEnv = Object.keys(body.values).filter((key) => config.sources[key as ConfigKey] === 'env');
    if (fromEnv.length > 0) {
      throw AppError.validation(`values: ${fromEnv.join(', ')} set by the environment; change it there`);
    }
    const current = readConfigFile(config.configPath, secretStore);
    const next = { ...current };
    for (const [key, value] of Object.entries(body.values) as [ConfigKey, string][]) {
      if (value === '') delete next[key];
      else next[key] = value;
    }
    const issues = validateConfigValues(next);
    // details: [{field, rule, message}] like every other 400, so the dashboard can put them in words.
    if (issues.length > 0) throw AppError.validation(issues.map(configIssueLine).join('; '), issues);
    writeConfigFile(config.configPath, next, secretStore);
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
}
