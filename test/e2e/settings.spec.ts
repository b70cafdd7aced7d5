import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { tempDir } from '../support/temp-dir.js';
import { startBridge, type RunningBridge } from './bridge-process.js';
import { expect, screenshot, test } from './fixtures.js';

/**
 * Settings (issue #12.1, #12.10): a PUBLISH_ROUTES path the operator put in the config file is
 * shown read-only with where to change it; secrets show a fixed mask (lists, short values) or
 * ••••1234; the dashboard accepts the route table only as JSON.
 */

const key = `settings-e2e-${Date.now()}-0123456789`;
const files = tempDir('settings-e2e-files');
const routesFile = join(files.path, 'publish-routes.json');
let bridge: RunningBridge | undefined;

test.afterAll(async () => {
  await bridge?.stop();
  files.remove();
});

test('settings: a route-table path from the config file is read-only, secrets are masked', async ({
  page,
}) => {
  writeFileSync(
    routesFile,
    JSON.stringify({ Videosite: { livestream: '/videosite/livestream', upload: '/videosite/upload' } }),
  );
  bridge = await startBridge(key, {
    logName: 'bridge-settings.log',
    env: { CRM_WEBHOOK_SECRETS: 'espo-secret-alpha,espo-secret-beta' },
    configFile: {
      PUBLISH_ROUTES: routesFile,
      CRM_PASSWORD: 'short1',
      GATEWAY_API_KEY: 'gateway-key-0123456789wxyz',
    },
  });
  await page.addInitScript(([name, value]) => window.localStorage.setItem(name, value), [
    API_KEY_STORAGE_KEY,
    key,
  ] as const);
  await page.goto(`${bridge.url}/#/settings`);
  const table = page.getByTestId('settings-section-gateway');

  const routes = table.getByTestId('setting-PUBLISH_ROUTES');
  await expect(routes.getByTestId('setting-value')).toHaveText(routesFile);
  await expect(routes).toContainText('read-only');
  await expect(routes.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(routes.getByTestId('setting-note')).toContainText(
    `change it by editing ${join(bridge.dataDir, 'config.json')}`,
  );

  const secrets = page.getByTestId('settings-section-crm').getByTestId('setting-CRM_WEBHOOK_SECRETS');
  await expect(secrets.getByTestId('setting-value')).toHaveText('••••••••');
  await expect(secrets.getByTestId('setting-note')).toHaveText(
    '2 secrets set. Sandbox: the simulated CRM signs its webhooks with the first one.',
  );
  await expect(page.getByTestId('setting-CRM_PASSWORD').getByTestId('setting-value')).toHaveText('••••••••');
  await expect(table.getByTestId('setting-GATEWAY_API_KEY').getByTestId('setting-value')).toHaveText(
    '••••wxyz',
  );
  const text = (await page.locator('body').textContent()) ?? '';
  for (const leak of ['espo-secret', 'short1', 'gateway-key-0123']) expect(text).not.toContain(leak);

  await routes.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-read-only-routes-and-masks');
});

test('settings: the route table is entered as JSON, a file path is refused before sending', async ({
  dashboard: page,
}) => {
  await page.goto('/#/settings');
  const routes = page.getByTestId('settings-section-gateway').getByTestId('setting-PUBLISH_ROUTES');
  await routes.getByRole('button', { name: 'Edit' }).click();
  const input = routes.getByLabel('Publishing routes: new value');
  await input.fill('/etc/shadow');
  await expect(routes.getByRole('alert')).toHaveText(
    'Enter the route table itself, as JSON starting with {. A file path can only be set in the environment or in the config file.',
  );
  await expect(routes.getByRole('button', { name: 'Save' })).toBeDisabled();
  await screenshot(page, 'settings-routes-path-refused');

  await input.fill('{"Videosite":{"livestream":"/videosite/livestream","upload":"/videosite/upload"}}');
  await expect(routes.getByRole('alert')).toHaveCount(0);
  await routes.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings-saved')).toContainText('PUBLISH_ROUTES');
  // The section's "A restart will change: … becomes {…}" holds the JSON, one word with no space:
  // at 390 px it wraps inside the section instead of widening the page (it made Settings 550 px).
  const note = page.getByTestId('settings-section-gateway').getByTestId('restart-note');
  await expect(note).toContainText('becomes {"Videosite"');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'settings-pending-json-390');
});

test('settings: moving a peer to another address asks for its key again in the same save (issue #35.3)', async ({
  page,
}) => {
  const movingKey = `settings-move-e2e-${Date.now()}-0123456789`;
  const moving = await startBridge(movingKey, {
    logName: 'bridge-settings-move.log',
    configFile: {
      GATEWAY_URL: 'https://gateway.studio.example',
      GATEWAY_API_KEY: 'gateway-key-old-0123456789',
    },
  });
  try {
    await page.addInitScript(([name, value]) => window.localStorage.setItem(name, value), [
      API_KEY_STORAGE_KEY,
      movingKey,
    ] as const);
    await page.goto(`${moving.url}/#/settings`);
    const row = page.getByTestId('settings-section-gateway').getByTestId('setting-GATEWAY_URL');
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel('Gateway address: new value').fill('https://gateway.elsewhere.example');
    await row.getByRole('button', { name: 'Save' }).click();
    // Settings by label, not config key (the keys are the small print).
    await expect(row.getByRole('alert')).toContainText(
      'API key saved for https://gateway.studio.example; to move Gateway address to https://gateway.elsewhere.example',
    );
    await screenshot(page, 'settings-move-asks-key-again');

    await row.getByLabel('API key for the new address').fill('gateway-key-new-0123456789');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('settings-saved')).toContainText('GATEWAY_URL, GATEWAY_API_KEY');
    const saved = JSON.parse(readFileSync(join(moving.dataDir, 'config.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(saved).toMatchObject({
      GATEWAY_URL: 'https://gateway.elsewhere.example',
      GATEWAY_API_KEY: 'gateway-key-new-0123456789',
      secretOrigins: { GATEWAY_API_KEY: 'https://gateway.elsewhere.example' },
    });
  } finally {
    await moving.stop();
  }
});
