import { networkInterfaces } from 'node:os';
import { expect, test } from '@playwright/test';
import { startBridge, type RunningBridge } from './bridge-process.js';

/** This machine's first non-loopback IPv4 address: what a browser elsewhere on the LAN would use. */
function lanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((nic) => nic && nic.family === 'IPv4' && !nic.internal)?.address;
}

const key = `lan-e2e-${Date.now()}-0123456789`;
let bridge: RunningBridge | undefined;
test.afterAll(async () => {
  await bridge?.stop();
});

// Loopback is exempt from some browser security rules (e.g. upgrade-insecure-requests), so a
// dashboard that works on 127.0.0.1 can still be blank for the operator's laptop on the LAN.
test('a browser on the LAN loads the dashboard over plain http (BRIDGE_HOST=0.0.0.0)', async ({ page }) => {
  const address = lanAddress();
  test.skip(address === undefined, 'this machine has no non-loopback IPv4 address');
  bridge = await startBridge(key, { host: '0.0.0.0', logName: 'bridge-lan.log' });
  const lanUrl = bridge.url.replace('127.0.0.1', address!);

  const failed: string[] = [];
  page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
  const response = await page.goto(`${lanUrl}/`);
  expect(response?.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
  expect(response?.headers()['strict-transport-security']).toBeUndefined();

  await page.getByLabel('Bridge API key').fill(key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByText('Bridge OK')).toBeVisible();
  expect(failed.filter((f) => !f.includes('/events'))).toEqual([]);
});
