import type { APIRequestContext } from '@playwright/test';
import { expect, screenshot, test, type BridgeUnderTest, sandboxControlHeaders } from './fixtures.js';

/** Issue #14.2, #14.3, #14.11 on the Posts page: media checks and previews, edit and reschedule, per-platform states. */

const pad = (n: number) => String(n).padStart(2, '0');
const localInput = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

const auth = (bridge: BridgeUnderTest) => ({ authorization: `Bearer ${bridge.key}` });

async function postsvcUrl(request: APIRequestContext, bridge: BridgeUnderTest): Promise<string> {
  const health = await request.get(`${bridge.url}/health`, { headers: auth(bridge) });
  return ((await health.json()) as { peers: { postsvc: { url: string } } }).peers.postsvc.url;
}

interface PostRow {
  post: string;
  status: string;
  source: string;
  platforms: string[];
  publishAt: string | null;
}
async function posts(request: APIRequestContext, bridge: BridgeUnderTest): Promise<PostRow[]> {
  const response = await request.get(`${bridge.url}/api/posts`, { headers: auth(bridge) });
  return ((await response.json()) as { data: PostRow[] }).data;
}

test('composer: media checked per platform while typing, per-platform preview, spacing against CRM posts', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  await page.goto('/#/posts');
  await expect(page.getByTestId('post-list')).toBeVisible();
  await expect(page.getByTestId('quota-cancelled-note')).toContainText('Cancelled posts still count');

  await page.getByLabel('Post', { exact: true }).fill('Behind the scenes, new booth');
  await page.getByRole('button', { name: 'Microblog', exact: true }).click(); // off
  await page.getByRole('button', { name: 'Photogram', exact: true }).click();
  const check = page.getByTestId('media-check-photogram');
  await expect(check).toHaveText('✕ Photogram needs an image or a video: add a media link');
  await expect(page.getByRole('button', { name: 'Schedule post' })).toBeDisabled();
  await screenshot(page, 'posts-media-check-missing');

  await page.getByRole('button', { name: 'Photogram', exact: true }).click(); // off
  await page.getByRole('button', { name: 'Videosite', exact: true }).click();
  await page.getByLabel('Media URLs').fill('https://cdn.example.com/booth.png');
  await expect(page.getByTestId('media-check-videosite')).toHaveText(
    '✕ Videosite needs a video: booth.png is not one',
  );
  await expect(page.getByRole('button', { name: 'Schedule post' })).toBeDisabled();
  // The rule is said once, in words: not again as a raw rule in the list of checks.
  await expect(page.getByText('mediaUrls:')).toHaveCount(0);
  await screenshot(page, 'posts-media-check-error');
  await page.getByLabel('Media URLs').fill('https://cdn.example.com/booth.mp4');
  await expect(page.getByTestId('media-check-videosite')).toHaveText('✓ Videosite needs a video: found');
  await page.getByRole('button', { name: 'Videosite', exact: true }).click(); // off

  // How each platform counts and cuts: microblog counts the link as 23 and cuts at 280.
  const link = `https://studio.com/${'episode-'.repeat(10)}`;
  const text = `${'Long thoughts on small rooms. '.repeat(9)}${link}`;
  await page.getByLabel('Post', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Microblog', exact: true }).click();
  await page.getByRole('button', { name: 'Socialnet', exact: true }).click();
  const micro = page.getByTestId('preview-microblog');
  await expect(micro).toContainText(`${270 + 23} / 280`);
  await expect(micro.locator('mark')).toHaveCount(1);
  await expect(micro).toContainText('13 over the limit');
  await expect(page.getByTestId('preview-socialnet')).toContainText(`${text.length} / 63,206`);
  await expect(page.getByTestId('preview-socialnet').locator('mark')).toHaveCount(0);
  await screenshot(page, 'posts-platform-preview');

  // Spacing counts the CRM's scheduled posts (the demo's was scheduled at the provider before the bridge).
  const crmPost = (await posts(request, bridge)).find(
    (p) => p.source === 'crm' && p.status === 'scheduled' && p.platforms[0] === 'professional',
  );
  expect(crmPost?.publishAt).toBeTruthy();
  await page.getByLabel('Post', { exact: true }).fill('Half an hour after the CRM post');
  await page.getByRole('button', { name: 'Microblog', exact: true }).click(); // off
  await page.getByRole('button', { name: 'Socialnet', exact: true }).click(); // off
  await page.getByRole('button', { name: 'Professional', exact: true }).click();
  await page
    .getByLabel(/^Publish at/)
    .fill(localInput(new Date(Date.parse(crmPost!.publishAt!) + 30 * 60_000)));
  // Said at the time field, in words (issue #30.4).
  const atWhen = page.locator('#composer-scheduleDate-notes');
  await expect(atWhen).toContainText('Another Professional post goes out');
  await expect(atWhen).toContainText('30 minutes from this one');
});

test('a partly failed post shows each platform; Retry sends only the failed one', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const provider = await postsvcUrl(request, bridge);
  const text = `Partly out ${Date.now().toString(36)}`;
  await request.post(`${provider}/__sandbox/fail-platform`, {
    headers: await sandboxControlHeaders(request, bridge),
    data: { platform: 'socialnet', message: 'Page token expired. Reconnect the page.' },
  });
  try {
    const sent = await request.post(`${bridge.url}/postsvc/schedule`, {
      headers: auth(bridge),
      data: {
        post: text,
        platforms: ['microblog', 'socialnet'],
        scheduleDate: new Date(Date.now() + 30 * 3_600_000).toISOString(),
      },
    });
    expect(sent.status()).toBe(500);
  } finally {
    await request.post(`${provider}/__sandbox/fail-platform`, {
      headers: await sandboxControlHeaders(request, bridge),
      data: { platform: 'socialnet', message: null },
    });
  }

  await page.goto('/#/posts');
  const row = page.getByTestId('post-list').locator('tr', { hasText: text });
  await expect(row).toContainText('Partly failed');
  await expect(row.getByTestId('platform-state-microblog')).toContainText('Scheduled');
  await expect(row.getByTestId('platform-state-socialnet')).toContainText('Failed');
  await expect(row).toContainText('Socialnet: Page token expired. Reconnect the page.');
  await screenshot(page, 'posts-partly-failed');

  await row.getByRole('button', { name: 'Retry failed' }).click();
  await expect(row.getByTestId('platform-state-microblog')).toHaveCount(0);
  await expect(row).toContainText('Scheduled');
  await expect(row).not.toContainText('Partly failed');
  await expect(row.getByRole('button', { name: /Retry/ })).toHaveCount(0);
});

test('a failed CRM post whose time has passed: edit and reschedule it, written back to the CRM', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  await page.goto('/#/posts');
  // The demo's Photogram post that failed yesterday for want of media.
  const row = page
    .getByTestId('post-list')
    .locator('tr', { hasText: 'Behind the scenes of our overnight session' });
  await expect(row).toContainText('Failed');
  await expect(row).toContainText('Its time has passed: post it now or reschedule it.');
  await expect(row.getByRole('button', { name: 'Retry' })).toHaveCount(0);

  await row.getByRole('button', { name: 'Reschedule…' }).click();
  const dialog = page.getByTestId('reschedule-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Photogram (a post from the CRM keeps its platform)');
  await expect(dialog.getByTestId('media-check-photogram')).toContainText('add a media link');
  await expect(dialog.getByRole('button', { name: 'Reschedule on Photogram' })).toBeDisabled();
  await screenshot(page, 'posts-edit-dialog');

  const text = 'Behind the scenes of our overnight session with Camila Reyes, now with the photo.';
  await dialog.getByLabel('Post', { exact: true }).fill(text);
  await dialog.getByLabel('Media link').fill('https://cdn.example.com/overnight.jpg');
  await expect(dialog.getByTestId('media-check-photogram')).toContainText('found');
  const when = new Date(Date.now() + 2 * 86_400_000);
  when.setHours(11, 15, 0, 0);
  await dialog.getByLabel(/^Publish at/).fill(localInput(when));
  await screenshot(page, 'posts-edit-dialog-filled');
  await dialog.getByRole('button', { name: 'Reschedule on Photogram' }).click();
  await expect(dialog).toHaveCount(0);

  const rescheduled = page.getByTestId('post-list').locator('tr', { hasText: 'now with the photo' });
  await expect(rescheduled).toContainText('Scheduled');
  const stored = (await posts(request, bridge)).find((p) => p.post === text);
  expect(stored).toMatchObject({ source: 'crm', status: 'scheduled' });
  expect(Date.parse(stored!.publishAt!)).toBe(when.getTime());
});
