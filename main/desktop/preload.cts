/**
 * Preload of the dashboard window (DESIGN §9): exposes one object, `window.studioBridge`.
 *
 * A `.cts` file so that tsc emits CommonJS (`preload.cjs`) although the package is `"type": "module"`:
 * sandboxed preloads run as plain scripts wrapped in a function, without ESM `import` and with a
 * `require` that knows only Electron's sandbox modules. So this file is self-contained: it requires
 * nothing but `electron`, and its imports of project files are type-only.
 */
import type { StudioBridgeDesktopApi, StudioBridgeGlobalName } from '../../shared/desktop-api.js';
import type { ApiKeyChannel, LaunchArgPrefix, PreloadLaunchArgs } from './preload-args.js';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the only import form tsc allows in a CommonJS file under verbatimModuleSyntax
import electron = require('electron');

const LAUNCH_ARG_PREFIX: LaunchArgPrefix = '--studio-bridge=';
const API_KEY_CHANNEL: ApiKeyChannel = 'studio-bridge:api-key';
const GLOBAL_NAME: StudioBridgeGlobalName = 'studioBridge';

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** The values main.ts put into `additionalArguments`, or undefined when absent or malformed. */
function parseLaunchArgs(argv: readonly string[]): PreloadLaunchArgs | undefined {
  const arg = argv.find((entry) => entry.startsWith(LAUNCH_ARG_PREFIX));
  if (arg === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(decodeURIComponent(arg.slice(LAUNCH_ARG_PREFIX.length)));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { bridgeUrl, platform, version } = value as Record<string, unknown>;
  if (!isString(bridgeUrl) || !isString(platform) || !isString(version)) return undefined;
  return { bridgeUrl, platform, version };
}

function expose(): void {
  const launch = parseLaunchArgs(process.argv);
  // Answered with null when this frame is not the bridge's origin.
  const apiKey: unknown = electron.ipcRenderer.sendSync(API_KEY_CHANNEL);
  if (launch === undefined || !isString(apiKey)) {
    // The dashboard then behaves as in a plain browser and asks for the key.
    console.error('studio-bridge preload: launch values unavailable; window.studioBridge not set');
    return;
  }
  const api: StudioBridgeDesktopApi = Object.freeze({ ...launch, apiKey });
  electron.contextBridge.exposeInMainWorld(GLOBAL_NAME, api);
}

expose();
