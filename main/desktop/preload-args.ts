/**
 * How the main process hands the preload its values (DESIGN §9). Pure: no Electron imports.
 *
 * Non-secret values travel in `webPreferences.additionalArguments`, which Electron appends to the
 * renderer's `process.argv`. The API key does not: a process's command line is readable by every local
 * user (`ps`, /proc/<pid>/cmdline), so the preload asks for it over a synchronous IPC call that the main
 * process answers only for frames of the bridge's origin.
 *
 * preload.cts cannot import this module at run time (a sandboxed preload may only `require('electron')`),
 * so it repeats the two constants; the literal types below make the compiler check that both agree.
 */
import type { StudioBridgeDesktopApi } from '../../shared/desktop-api.js';

export type LaunchArgPrefix = '--studio-bridge=';
export type ApiKeyChannel = 'studio-bridge:api-key';

export const LAUNCH_ARG_PREFIX: LaunchArgPrefix = '--studio-bridge=';
export const API_KEY_CHANNEL: ApiKeyChannel = 'studio-bridge:api-key';

export type PreloadLaunchArgs = Omit<StudioBridgeDesktopApi, 'apiKey'>;

/** One argv entry; URI-encoded JSON survives every platform's command-line quoting. */
export function encodeLaunchArg(args: PreloadLaunchArgs): string {
  const { bridgeUrl, platform, version } = args;
  return LAUNCH_ARG_PREFIX + encodeURIComponent(JSON.stringify({ bridgeUrl, platform, version }));
}
