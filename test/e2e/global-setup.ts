import { randomBytes } from 'node:crypto';
import { startBridge } from './bridge-process.js';

/**
 * Starts one real bridge for the whole run and hands its address and key to the tests through
 * the environment (workers inherit it). The returned function is Playwright's teardown: it
 * always stops the bridge and removes its data directory.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // The premium plan's 100 posts a day: the specs together schedule more than the free plan's 10.
  const bridge = await startBridge(`e2e-${randomBytes(16).toString('hex')}`, {
    env: { POSTSVC_PLAN: 'premium' },
  });
  process.env.E2E_BRIDGE_URL = bridge.url;
  process.env.E2E_BRIDGE_KEY = bridge.apiKey;
  process.env.E2E_BRIDGE_DATA_DIR = bridge.dataDir;
  return bridge.stop;
}
