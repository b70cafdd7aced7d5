import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { startBridge } from './bridge-process.js';
import type { RunningBridge } from './bridge-process.js';
import { expectOverviewLive } from './restart-recovery.js';
import { expect, test } from './fixtures.js';

/**
 * Issue #30.5, "after an outage": what the bridge being unreachable put on screen goes away by
 * itself when it answers again, and a start link pasted into an open tab signs in at once.
 */

const viewports = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/**
 * What the window shows (test/e2e/screenshots/<name>.png), scrolled to `target` when given: at
 * 390 px the Overview is five screens tall, and the point is the banner or the recorder form.
 */
async function windowShot(page: Page, name: string, target?: Locator): Promise<void> {
  if (target) await target.scrollIntoViewIfNeeded();
  else await page.evaluate(() => window.scrollTo(0, 0));
  const path = resolve(fileURLToPath(new URL('.', import.meta.url)), 'screenshots', `${name}.png`);
  await page.screenshot({ path, animations: 'disabled' });
}

/** Set before the action: still there afterwards means the page was not reloaded. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => Reflect.set(window, '__sameDocument', true));
}
async function expectSamePage(page: Page): Promise<void> {
  expect(await page.evaluate(() => Reflect.get(window, '__sameDocument') === true)).toBe(true);
}

/** Pastes `link` into the address bar of the open tab: a fragment change, no reload. */
async function pasteLink(page: Page, link: string): Promise<void> {
  await page.evaluate((href) => {
    window.location.href = href;
  }, link);
}

// A failing test leaves a picture of the screen it ended on (docs/screens/before/ came from these).
test.afterEach(async ({ page }, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  const width = page.viewportSize()?.width ?? 0;
  const slug = testInfo.title.split(/[:,]/)[0]!.replace(/\W+/g, '-');
  const recorderForm = page.getByLabel('New filename');
  await windowShot(
    page,
    `outage-failed-${slug}-${width}`,
    (await recorderForm.count()) > 0 ? recorderForm : undefined,
  );
});

// The bridge is stopped and started again here: a bridge of this spec's own, never the shared one.
test.describe('bridge down and back', () => {
  const key = `outage-e2e-${Date.now()}-0123456789`;
  let own: RunningBridge | undefined;
  test.beforeAll(async () => {
    own = await startBridge(key, { logName: 'bridge-outage.log' });
  });
  test.afterAll(async () => {
    await own?.stop();
  });

  for (const viewport of viewports) {
    test.describe(`at ${viewport.width}`, () => {
      test.use({ viewport });

      test('an error shown while the bridge was down clears by itself once it answers, and the data is read again', async ({
        page,
      }) => {
        test.setTimeout(120_000);
        const bridge = own!;
        await page.addInitScript(([name, value]) => window.localStorage.setItem(name, value), [
          API_KEY_STORAGE_KEY,
          key,
        ] as const);
        await page.goto(`${bridge.url}/#/`);
        await expectOverviewLive(page, /./);
        // In the bridge's memory only: "… the bridge restarted at …" after the restart proves a fresh read.
        await page.getByLabel('New filename').fill('before_the_outage');
        await page.getByRole('button', { name: 'Set filename' }).click();
        await expect(page.getByTestId('recorder-current')).toHaveText('before_the_outage');
        await markPage(page);

        await bridge.stopProcess();
        await expect(page.getByTestId('live-status').first()).not.toHaveText(/Live/);
        // An action tried while the bridge is down fails: that error is the outage's.
        await page.getByLabel('New filename').fill('during_the_outage');
        await page.getByRole('button', { name: 'Set filename' }).click();
        await expect(page.getByTestId('recorder-save-error')).toContainText('Cannot reach the bridge');
        // The operator is told what is going on, on every page.
        await expect(page.getByTestId('outage-banner')).toContainText('Bridge unreachable — retrying…');
        // The header's pill says it in words when pointed at, the browser's own line as the detail.
        await expect(page.getByText('Bridge unreachable', { exact: true })).toHaveAttribute(
          'title',
          /^The dashboard gets no answer from the bridge and keeps trying \(.+\)$/,
        );
        await windowShot(page, `outage-down-${viewport.width}`);
        await windowShot(
          page,
          `outage-down-recorder-${viewport.width}`,
          page.getByTestId('recorder-save-error'),
        );

        await bridge.startAgain();
        await expect(page.getByTestId('recorder-save-error')).toHaveCount(0);
        await expect(page.getByTestId('outage-banner')).toHaveCount(0);
        await expectOverviewLive(page, /restarted at/);
        await expectSamePage(page);
        await windowShot(page, `outage-recovered-${viewport.width}`, page.getByLabel('New filename'));
      });
    });
  }
});

test('a tunnel answering 502 in the bridge’s place: its errors go once the bridge answers again', async ({
  dashboard: page,
}) => {
  await page.goto('/#/');
  await expect(page.getByTestId('live-status').first()).toHaveText(/Live/);
  await markPage(page);

  // What a reverse proxy or tunnel answers while the bridge behind it is down: its own page.
  const bridgePaths = /^\/(api|health|events)(\/|\?|$)/;
  const tunnelDown = (url: URL) => bridgePaths.test(url.pathname);
  await page.route(tunnelDown, (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' }),
  );
  await page.getByLabel('New filename').fill('through_the_tunnel');
  await page.getByRole('button', { name: 'Set filename' }).click();
  await expect(page.getByTestId('recorder-save-error')).toContainText('HTTP 502');
  await expect(page.getByTestId('outage-banner')).toContainText('Bridge unreachable — retrying…');

  await page.unroute(tunnelDown);
  await expect(page.getByTestId('outage-banner')).toHaveCount(0);
  await expect(page.getByTestId('recorder-save-error')).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectSamePage(page);
});

test.describe('the start link pasted into an open tab', () => {
  for (const viewport of viewports) {
    test.describe(`at ${viewport.width}`, () => {
      test.use({ viewport });

      test('on the key screen: signs in at once, and the key leaves the address bar', async ({
        page,
        bridge,
      }) => {
        await page.goto('/#/');
        await expect(page.getByRole('heading', { name: 'Connect to Studio Bridge' })).toBeVisible();
        await markPage(page);

        await pasteLink(page, `${bridge.url}/#key=${encodeURIComponent(bridge.key)}`);
        await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
        await expect(page.getByTestId('live-status').first()).toHaveText(/Live/);
        expect(page.url()).not.toContain('key=');
        expect(page.url()).toBe(`${bridge.url}/#/`);
        expect(await page.evaluate((name) => window.localStorage.getItem(name), API_KEY_STORAGE_KEY)).toBe(
          bridge.key,
        );
        await expectSamePage(page);
        await windowShot(page, `outage-link-signed-in-${viewport.width}`);
      });
    });
  }

  test('on another page: opens the Overview and drops the key from the address bar', async ({
    dashboard: page,
    bridge,
  }) => {
    await page.goto('/#/activity');
    await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
    await markPage(page);

    await pasteLink(page, `${bridge.url}/#key=${encodeURIComponent(bridge.key)}`);
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    expect(page.url()).toBe(`${bridge.url}/#/`);
    await expectSamePage(page);
  });

  test('with a wrong key: the key screen says the link’s key was refused, and the key leaves the address bar', async ({
    page,
    bridge,
  }) => {
    await page.setViewportSize(viewports[0]);
    await page.goto('/#/');
    await expect(page.getByRole('heading', { name: 'Connect to Studio Bridge' })).toBeVisible();
    await markPage(page);

    await pasteLink(page, `${bridge.url}/#key=not-the-bridge-key-0123456789`);
    await expect(page.getByRole('alert')).toContainText(
      'The bridge refused the key in the start link you opened',
    );
    expect(page.url()).toBe(`${bridge.url}/#/`);
    await expectSamePage(page);
    await windowShot(page, 'outage-link-wrong-key-1280');
  });
});
