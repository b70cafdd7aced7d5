import type { Locator, Page } from '@playwright/test';
import { expect, test, sandboxControlHeaders } from './fixtures.js';

/**
 * Issue #30.2: every dialog keeps its buttons on screen at 1280×800 and 390×844 (a long
 * Edit-and-reschedule form pushed "Keep as it is" out of the dialog), and an action that
 * destroys something asks with a red button.
 */

const viewports = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Every visible button of the dialog lies inside both the viewport and the dialog's own box. */
async function expectButtonsOnScreen(page: Page, dialog: Locator, what: string): Promise<void> {
  await expect(dialog).toBeVisible();
  const viewport = page.viewportSize()!;
  const box = (await dialog.boundingBox())!;
  const buttons = dialog.getByRole('button');
  const count = await buttons.count();
  expect(count, `${what}: has buttons`).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const button = buttons.nth(i);
    if (!(await button.isVisible())) continue;
    const name = ((await button.textContent()) ?? '').trim();
    const b = (await button.boundingBox())!;
    const inside =
      b.x >= 0 &&
      b.y >= 0 &&
      b.x + b.width <= viewport.width + 0.5 &&
      b.y + b.height <= viewport.height + 0.5 &&
      b.x >= box.x - 0.5 &&
      b.x + b.width <= box.x + box.width + 0.5 &&
      b.y >= box.y - 0.5 &&
      b.y + b.height <= box.y + box.height + 0.5;
    expect(
      inside,
      `${what} at ${viewport.width}: "${name}" at ${JSON.stringify(b)} is outside the dialog ${JSON.stringify(box)} or the viewport`,
    ).toBe(true);
    // A label is never cut: the button's text fits its box (it wraps instead).
    const clipped = await button.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(clipped, `${what} at ${viewport.width}: "${name}" is cut`).toBe(false);
  }
}

/** Scrolls an in-page confirmation (a panel that asks in place) into view before measuring it. */
async function inPlace(page: Page, dialog: Locator, what: string): Promise<void> {
  await dialog.scrollIntoViewIfNeeded();
  await expectButtonsOnScreen(page, dialog, what);
}

for (const viewport of viewports) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test(`every dialog keeps its buttons on screen; destructive ones are red (${viewport.width})`, async ({
      dashboard: page,
      request,
      bridge,
    }) => {
      test.setTimeout(120_000);
      const auth = { authorization: `Bearer ${bridge.key}` };
      const tag = `${viewport.width}-${Date.now().toString(36)}`;

      // A four-platform post every platform refused: Edit… opens the longest form.
      const health = await request.get(`${bridge.url}/health`, { headers: auth });
      const provider = ((await health.json()) as { peers: { postsvc: { url: string } } }).peers.postsvc.url;
      const control = await sandboxControlHeaders(request, bridge);
      const four = ['microblog', 'photogram', 'videosite', 'socialnet'];
      for (const platform of four) {
        await request.post(`${provider}/__sandbox/fail-platform`, {
          headers: control,
          data: {
            platform,
            message: `The ${platform} account was disconnected. Reconnect it at the provider.`,
          },
        });
      }
      const text = `Four ways ${tag}`;
      try {
        await request.post(`${bridge.url}/postsvc/schedule`, {
          headers: auth,
          data: {
            post: text,
            platforms: four,
            mediaUrls: ['https://cdn.example.com/trailer.mp4'],
            scheduleDate: new Date(Date.now() + 30 * 3_600_000).toISOString(),
          },
        });
      } finally {
        for (const platform of four) {
          await request.post(`${provider}/__sandbox/fail-platform`, {
            headers: control,
            data: { platform, message: null },
          });
        }
      }

      await page.goto('/#/posts');
      const row = page.getByTestId('post-list').locator('tr', { hasText: text });
      await expect(row).toContainText('Failed');
      await row.getByRole('button', { name: 'Edit…' }).click();
      const reschedule = page.getByTestId('reschedule-dialog');
      await page.screenshot({ path: `test/e2e/screenshots/dialogs-reschedule-${viewport.width}.png` });
      await expectButtonsOnScreen(page, reschedule, 'Edit and reschedule');
      await reschedule.getByRole('button', { name: 'Keep as it is' }).click();
      await expect(reschedule).toHaveCount(0);

      // Publish now asks first.
      await page.getByLabel('Post', { exact: true }).fill(`Now or never ${tag}`);
      await page.getByRole('radio', { name: 'Publish now' }).check();
      await page.getByRole('button', { name: 'Publish now' }).click();
      const postNow = page.getByRole('alertdialog', { name: /now\?$/ });
      await page.screenshot({ path: `test/e2e/screenshots/dialogs-post-now-${viewport.width}.png` });
      await expectButtonsOnScreen(page, postNow, 'Post now');
      await postNow.getByRole('button', { name: 'Cancel' }).click();
      await expect(postNow).toHaveCount(0);

      // Cancelling a scheduled post asks in place, in red.
      const scheduled = page
        .getByTestId('post-list')
        .locator('tr')
        .filter({
          has: page.getByRole('button', { name: 'Cancel', exact: true }),
        });
      await scheduled.first().getByRole('button', { name: 'Cancel', exact: true }).click();
      const cancelPost = page.getByRole('button', { name: 'Cancel post' });
      await expect(cancelPost).toHaveClass(/danger/);
      await inPlace(page, page.locator('.posts-confirm'), 'Cancel post');
      await page.getByRole('button', { name: 'Keep', exact: true }).click();

      // Broadcasts: delete asks in red even when the broadcast is not live.
      await page.goto('/#/broadcasts');
      const created = await request.post(`${bridge.url}/streamhost/create-broadcast`, {
        headers: auth,
        data: {
          name: `Dialog check ${tag}`,
          scheduledAt: new Date(Date.now() + (200 + viewport.width / 10) * 60_000).toISOString(),
          channelId: 'main',
        },
      });
      expect(created.ok(), await created.text()).toBe(true);
      await page.reload();
      const broadcast = page.locator(`[data-testid="broadcast-row"][data-name="Dialog check ${tag}"]`);
      await broadcast.getByRole('button', { name: 'Delete' }).click();
      const remove = page.getByRole('alertdialog', { name: `Delete Dialog check ${tag}?` });
      await page.screenshot({ path: `test/e2e/screenshots/dialogs-delete-broadcast-${viewport.width}.png` });
      await expectButtonsOnScreen(page, remove, 'Delete broadcast');
      await expect(remove.getByRole('button', { name: 'Yes, delete' })).toHaveClass(/button-danger/);
      await remove.getByRole('button', { name: 'Cancel' }).click();

      // Guests: a move asks in place, showing the email it sends.
      await page.goto('/#/guests');
      // The first guest that has a stage to move to (a guest at the last stage has none; what
      // earlier specs did to the shared bridge's guests decides which one that is).
      const cards = page.locator('[data-testid^="guest-card-"]');
      await expect(cards.first()).toBeVisible();
      const detail = page.getByTestId('guest-detail');
      const stages = detail.getByLabel('Move in the CRM to');
      let options: string[] = [];
      for (let i = 0; i < (await cards.count()) && options.length === 0; i++) {
        await cards.nth(i).click();
        await expect(stages).toBeVisible();
        options = await stages.locator('option').evaluateAll((els) =>
          els.flatMap((el) => {
            const option = el as HTMLOptionElement;
            return option.value !== '' && !option.disabled ? [option.value] : [];
          }),
        );
      }
      expect(options.length, 'a guest with a stage to move to').toBeGreaterThan(0);
      await stages.selectOption(options[0]!);
      await detail.getByRole('button', { name: 'Move…' }).click();
      const move = detail.getByRole('alertdialog', { name: /^Move / });
      await expect(move.getByRole('button').first()).toBeEnabled();
      await inPlace(page, move, 'Move guest');
      await move.getByRole('button', { name: 'Cancel' }).click();
    });
  });
}
