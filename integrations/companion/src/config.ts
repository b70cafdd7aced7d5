import { Regex, type SomeCompanionConfigField } from '@companion-module/base';

/** What Companion keeps in the connection's config (shown, exported with the page). */
export type ModuleConfig = {
  /** The bridge's address, e.g. http://192.168.1.20:8787 (no trailing path). */
  url: string;
};

/** Kept in Companion's secret store: never shown again, never exported with the config. */
export type ModuleSecrets = {
  apiKey: string;
};

export const DEFAULT_URL = 'http://127.0.0.1:8787';

export function getConfigFields(): SomeCompanionConfigField[] {
  return [
    {
      type: 'static-text',
      id: 'info',
      width: 12,
      label: 'Studio Bridge',
      value:
        "The bridge's address and its API key (BRIDGE_API_KEY, or the desktop app's Settings → API key). The module reads the bridge's /events stream and its public API; nothing else.",
    },
    {
      type: 'textinput',
      id: 'url',
      label: 'Bridge URL',
      width: 8,
      default: DEFAULT_URL,
      regex: '/^https?:\\/\\/[^\\s/]+(\\/.*)?$/',
    },
    { type: 'secret-text', id: 'apiKey', label: 'API key', width: 8, regex: Regex.SOMETHING },
  ];
}

/** The URL as the client uses it: trimmed, without trailing slashes. */
export function bridgeBaseUrl(config: Partial<ModuleConfig> | undefined): string {
  return (config?.url ?? DEFAULT_URL).trim().replace(/\/+$/, '');
}
