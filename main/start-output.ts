import path from 'node:path';
import type { RunningBridge } from './app.js';

type Started = Pick<RunningBridge, 'url' | 'apiKey' | 'apiKeyFromEnv' | 'sandbox' | 'dataDir' | 'configPath'>;

/**
 * The lines `serve` prints once listening. The sign-in link carries the key, so it is printed
 * only to a terminal: a service's stdout lands in a journal that others may read (issue #35.8);
 * there the lines say where the key is kept instead.
 */
export function startOutput(bridge: Started, onTerminal: boolean): string {
  const dashboard = onTerminal
    ? // The key rides in the fragment: browsers never send it to the server, so it is in no
      // request line or log; the dashboard stores it and clears it from the address bar.
      `Dashboard: ${bridge.url}/#key=${encodeURIComponent(bridge.apiKey)}  (opens signed in on this computer)`
    : `Dashboard: ${bridge.url}  (asks for the API key once; the signed-in link is printed only on a terminal)`;
  const key = bridge.apiKeyFromEnv
    ? 'API key: the BRIDGE_API_KEY environment variable this bridge was started with'
    : `API key: BRIDGE_API_KEY in ${bridge.configPath}`;
  return [
    `Studio Bridge listening on ${bridge.url}${bridge.sandbox ? '  [SANDBOX: simulated CRM, provider, gateway and n8n]' : ''}`,
    dashboard,
    key,
    `Log: ${path.join(bridge.dataDir, 'logs', 'bridge.log')}  (LOG_LEVEL=debug also prints it here)`,
    '',
  ].join('\n');
}
