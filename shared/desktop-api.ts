/**
 * What the desktop app's preload exposes to the dashboard as `window.studioBridge` (DESIGN §9).
 * Absent in a plain browser (LAN, tunnel): the dashboard then asks for the key once.
 *
 * The dashboard declares it for itself:
 *
 *   import type { StudioBridgeDesktopApi } from '../../shared/desktop-api.js';
 *   declare global {
 *     interface Window { studioBridge?: StudioBridgeDesktopApi }
 *   }
 */
export interface StudioBridgeDesktopApi {
  /** Origin plus path of the bridge the window was loaded from, e.g. `http://127.0.0.1:4100`. */
  readonly bridgeUrl: string;
  /** Key for `Authorization: Bearer <key>` on the bridge API. */
  readonly apiKey: string;
  /** `process.platform` of the desktop app: `darwin`, `win32` or `linux`. */
  readonly platform: string;
  /** The app's version (package.json). */
  readonly version: string;
}

/** Name of the property on `window`. */
export type StudioBridgeGlobalName = 'studioBridge';
