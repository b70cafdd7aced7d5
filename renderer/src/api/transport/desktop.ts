import { z } from 'zod';
import type { StudioBridgeDesktopApi } from '../../../../shared/desktop-api.js';

/**
 * What the Electron preload exposes as `window.studioBridge` (shared/desktop-api.ts). Parsed rather
 * than trusted: in a plain browser it is absent, and a malformed value is ignored.
 */
const desktopBridge = z.object({
  bridgeUrl: z.string().min(1),
  apiKey: z.string().min(1),
  platform: z.string().default(''),
  version: z.string().default(''),
}) satisfies z.ZodType<StudioBridgeDesktopApi>;
export type DesktopBridge = z.output<typeof desktopBridge>;

function readDesktopBridge(): DesktopBridge | null {
  if (typeof window === 'undefined') return null;
  const parsed = desktopBridge.safeParse(Reflect.get(window, 'studioBridge'));
  return parsed.success ? parsed.data : null;
}

export const desktop: DesktopBridge | null = readDesktopBridge();

/** Prefix for API paths: empty (same origin) when the bridge serves the page, the bridge URL in the desktop window. */
export const bridgeBaseUrl: string = desktop ? desktop.bridgeUrl.replace(/\/+$/, '') : '';

/** Where the bridge is, for messages: "the bridge at http://...". */
export function bridgeLabel(): string {
  return bridgeBaseUrl || window.location.origin;
}
