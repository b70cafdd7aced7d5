import type { APIRequestContext, Page } from '@playwright/test';
import { API_KEY_STORAGE_KEY } from '../../renderer/src/api/storage-keys.js';
import { startBridge } from './bridge-process.js';
import type { RunningBridge } from './bridge-process.js';
import { expectOverviewLive, timeRestartRecovery } from './restart-recovery.js';
import { expect, screenshot, test, sandboxControlHeaders } from './fixtures.js';
import type { BridgeUnderTest } from './fixtures.js';
import { PAGE_PATHS as routes } from '../support/page-paths.js';

/** Issue #14 points 4, 5, 6 and 9: the dashboard shell and its live plumbing. */

function auth(bridge: { key: string }) {
  return { Authorization: `Bearer ${bridge.key}` };
}

/** Where the bridge says a sandbox peer listens (GET /health with the key). */
async function peerUrl(request: APIRequestContext, bridge: BridgeUnderTest, peer: string): Promise<string> {
  const health = await request.get('/health', { headers: auth(bridge) });
  const body = (await health.json()) as { peers: Record<string, { url: string }> };
  return body.peers[peer]!.url;
}

// --- 4. Public actions ask first ---

test('retrying a failed publish asks first, naming the platform and that it will be public', async ({
  dashboard: page,
}) => {
  await page.goto('/#/broadcasts');
  const failed = page.locator('[data-testid="publish-row"]').filter({ hasText: 'Failed' }).first();
  await expect(failed).toBeVisible();
  const platform = await failed.getAttribute('data-platform');

  await failed.getByRole('button', { name: 'Retry' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`to ${platform} now?`);
  await expect(dialog).toContainText('It will be public.');
  await screenshot(page, 'confirm-publish-retry');

  // Cancel sends nothing: the record is still Failed.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(failed.getByTestId('publish-state')).toHaveText('Failed');
});

test('posting now asks first, naming the platforms', async ({ dashboard: page }) => {
  await page.goto('/#/posts');
  const composer = page.getByTestId('post-composer');
  await composer.getByLabel('Post', { exact: true }).fill('Confirm-step check from the e2e suite');
  await composer.getByRole('radio', { name: 'Publish now' }).check();
  await composer.getByRole('button', { name: 'Publish now' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByRole('heading')).toContainText('to Microblog now?');
  await expect(dialog).toContainText('It will be public.');
  await screenshot(page, 'confirm-post-now');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  // Nothing was sent: the text is still in the composer.
  await expect(composer.getByLabel('Post', { exact: true })).toHaveValue(
    'Confirm-step check from the e2e suite',
  );
});

// --- 6. Failures must be noticed ---

/** Records `new Notification(title, options)` calls in window.__notifications (headless shows nothing). */
async function stubNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: { title: string; body: string | undefined }[] = [];
    Reflect.set(window, '__notifications', calls);
    class RecordingNotification {
      static permission: NotificationPermission = 'granted';
      static requestPermission(): Promise<NotificationPermission> {
        return Promise.resolve('granted');
      }
      onclick: (() => void) | null = null;
      constructor(title: string, options?: NotificationOptions) {
        calls.push({ title, body: options?.body });
      }
      close(): void {}
    }
    Reflect.set(window, 'Notification', RecordingNotification);
  });
}

test.describe('failure notifications', () => {
  test.use({ permissions: ['notifications'] });

  test('a failed post raises a notification and a badge until the Posts page is opened', async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    await stubNotifications(page);
    await page.goto('/#/');
    await expect(page.getByTestId('live-status').first()).toHaveText(/Live/);
    await page.getByRole('button', { name: 'Notifications off' }).click();
    await expect(page.getByRole('button', { name: 'Notifications on' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    const postsvc = await peerUrl(request, bridge, 'postsvc');
    await request.post(`${postsvc}/__sandbox/fail-platform`, {
      headers: await sandboxControlHeaders(request, bridge),
      data: { platform: 'pinboard', message: 'board is archived' },
    });
    try {
      const answer = await request.post('/postsvc/schedule', {
        headers: auth(bridge),
        data: {
          post: 'A pin that the provider refuses',
          platforms: ['pinboard'],
          mediaUrls: ['https://example.com/pin.jpg'],
        },
      });
      expect(answer.ok()).toBe(false);
    } finally {
      await request.post(`${postsvc}/__sandbox/fail-platform`, {
        headers: await sandboxControlHeaders(request, bridge),
        data: { platform: 'pinboard', message: null },
      });
    }

    await expect
      .poll(() => page.evaluate(() => Reflect.get(window, '__notifications') as { title: string }[]))
      .toEqual([expect.objectContaining({ title: expect.stringContaining('Post failed') })]);
    const nav = page.getByRole('navigation', { name: 'Pages' });
    await expect(nav.getByTestId('unread-posts')).toHaveText('1');
    await expect(nav.getByTestId('unread-activity')).toHaveText('1');
    await screenshot(page, 'failures-badge');

    await nav.getByRole('link', { name: /Posts/ }).click();
    await expect(nav.getByTestId('unread-posts')).toHaveCount(0);
    await nav.getByRole('link', { name: /Activity/ }).click();
    await expect(nav.getByTestId('unread-activity')).toHaveCount(0);
  });
});

// The live broadcast (ON AIR, End, the live delete question) is in broadcasts.spec.ts.

// --- 5. The screen goes stale: bridge down and restarted ---

test.describe('bridge restart', () => {
  const key = `restart-e2e-${Date.now()}-0123456789`;
  let own: RunningBridge | undefined;
  test.afterAll(async () => {
    await own?.stop();
  });

  test('peers show unknown while the bridge is down, and every panel recovers by itself after a restart', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    own = await startBridge(key, { logName: 'bridge-restart.log' });
    await page.addInitScript(([storageKey, value]) => window.localStorage.setItem(storageKey, value), [
      API_KEY_STORAGE_KEY,
      key,
    ] as const);
    await page.goto(`${own.url}/#/`);
    await expectOverviewLive(page, /./);
    const recoveredMs = await timeRestartRecovery(page, own, () =>
      screenshot(page, 'peers-unknown-bridge-down'),
    );
    console.log(`dashboard recovered ${recoveredMs} ms after the restarted bridge answered /health`);
    expect(recoveredMs).toBeLessThanOrEqual(5_000);
  });
});

// --- 9. Narrow windows ---

test.describe('narrow window (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('no page scrolls sideways and the navigation is a menu', async ({ dashboard: page }) => {
    test.setTimeout(120_000);
    for (const route of routes) {
      await page.goto(`/#${route}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
      const { width, widest } = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        // What sticks out, to name it when the page is too wide.
        widest: [...document.querySelectorAll('body *')]
          .filter((element) => {
            const right = (node: Element | null) => node?.getBoundingClientRect().right ?? 0;
            return right(element) > 391 && right(element.parentElement) <= 391;
          })
          .slice(0, 3)
          .map((element) => `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''}`),
      }));
      expect(width, `${route} is ${width} px wide: ${widest.join(', ')}`).toBeLessThanOrEqual(390);
      await screenshot(page, `narrow${route === '/' ? '-overview' : route.replace('/', '-')}`);
    }
    const nav = page.getByRole('navigation', { name: 'Pages' });
    await expect(nav.getByRole('link', { name: 'Posts' })).toBeHidden();
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(nav.getByRole('link', { name: 'Posts' })).toBeVisible();
    await screenshot(page, 'narrow-menu-open');
    await nav.getByRole('link', { name: 'Posts' }).click();
    await expect(page.getByRole('heading', { name: 'Posts', level: 1 })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Posts' })).toBeHidden();
  });
});
