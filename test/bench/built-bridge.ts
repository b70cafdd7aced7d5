import type { startBridge } from '../../main/app.js';
import { startTestBridge } from '../support/bridge.js';
import { built } from './built.js';

/** startTestBridge (test/support/bridge.ts) with the built bridge. */
export async function startBuiltBridge(...[env, options]: Parameters<typeof startTestBridge>) {
  const app = await built<{ startBridge: typeof startBridge }>('app.js');
  return startTestBridge(env, { ...options, start: app.startBridge });
}
