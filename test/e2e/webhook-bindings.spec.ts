import { signEspoWebhook } from '../../main/sandbox/index.js';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { startBridge, type RunningBridge } from './bridge-process.js';
import { expect, screenshot, test } from './fixtures.js';

/**
 * Settings shows each webhook id's binding to the route it was first seen on, and clears one
 * (issue #24.2, DESIGN §7).
 */

const key = `bindings-e2e-${Date.now()}-0123456789`;
const SECRET = 'espo-secret-bindings';
let bridge: RunningBridge | undefined;

test.afterAll(async () => {
  await bridge?.stop();
});

test('settings: webhook bindings are listed and one is cleared', async ({ page }) => {
  bridge = await startBridge(key, { logName: 'bridge-bindings.log', env: { CRM_WEBHOOK_SECRETS: SECRET } });
  const url = bridge.url;
  // Two CRM webhooks sign their first deliveries (each binds its id to its route).
  for (const [event, webhookId] of [
    ['guest-created', '6651f0c2a3b4c5d6e'],
    ['content-updated', '6651f0c2a3b4c5d7f'],
  ] as const) {
    const raw = JSON.stringify([{ id: `e2e-${event}` }]);
    const signature = signEspoWebhook(raw, webhookId, SECRET);
    const response = await fetch(`${url}/webhooks/${event}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [signature.header]: signature.value },
      body: raw,
    });
    expect(response.status).toBeLessThan(300);
  }
  await page.addInitScript(([name, value]) => window.localStorage.setItem(name, value), [
    API_KEY_STORAGE_KEY,
    key,
  ] as const);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${url}/#/settings`);
  const panel = page.getByTestId('webhook-bindings');
  await expect(panel.getByTestId('webhook-binding')).toHaveCount(2);
  await expect(panel).toContainText('/webhooks/guest-created');
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-webhook-bindings-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'settings-webhook-bindings-390');
  // The panel alone at that width: the full page is too long to read the panel in.
  await panel.screenshot({ path: 'test/e2e/screenshots/settings-webhook-bindings-390-panel.png' });

  await panel.getByRole('button', { name: 'Clear the binding of webhook 6651f0c2a3b4c5d6e' }).click();
  await expect(panel.getByTestId('webhook-binding')).toHaveCount(1);
  await expect(panel).not.toContainText('/webhooks/guest-created');
});
