import { expect, sandboxControlHeaders, screenshot, test } from './fixtures.js';

/**
 * Issue #30.1: a send that went out on one platform and was refused on another says so per
 * platform, in words (never an API path or the provider's post id), and the spacing check does
 * not then compare the post with itself ("0 min apart").
 */
test('a partly posted send says per platform what happened, and is not spaced against itself', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const auth = { authorization: `Bearer ${bridge.key}` };
  const health = await request.get(`${bridge.url}/health`, { headers: auth });
  const provider = ((await health.json()) as { peers: { postsvc: { url: string } } }).peers.postsvc.url;
  const control = await sandboxControlHeaders(request, bridge);
  const text = `Booth tour ${Date.now().toString(36)}`;

  await page.goto('/#/posts');
  await page.getByLabel('Post', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Photogram', exact: true }).click();
  await page.getByLabel('Media URLs').fill('https://cdn.example.com/booth.png');
  // A quiet slot: at 05:10 local, 9 days ahead, where no demo post sits within 2 hours.
  const when = new Date(Date.now() + 9 * 86_400_000);
  when.setHours(5, 10, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  await page
    .getByLabel(/^Publish at/)
    .fill(`${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T05:10`);
  await expect(page.getByText(/another post goes out/)).toHaveCount(0);

  await request.post(`${provider}/__sandbox/fail-platform`, {
    headers: control,
    data: { platform: 'photogram', message: 'Instagram-style account needs re-linking.' },
  });
  try {
    await page.getByRole('button', { name: 'Schedule post' }).click();
    const banner = page.getByTestId('schedule-error');
    await expect(banner).toContainText('Partly posted.');
    await expect(banner).toContainText(
      'Posted on Microblog. Photogram refused it: Instagram-style account needs re-linking.',
    );
    await expect(banner).toContainText('Retry failed');
    await expect(banner).not.toContainText('/postsvc');
    await expect(banner).not.toContainText('Not posted');
    const listed = await request.get(`${bridge.url}/api/posts`, { headers: auth });
    const row = ((await listed.json()) as { data: { post: string; postsvcId: string | null }[] }).data.find(
      (p) => p.post === text,
    );
    expect(row?.postsvcId).toBeTruthy();
    await expect(banner).not.toContainText(row!.postsvcId!);
    await screenshot(page, 'partial-words-composer');

    // The form keeps the draft; its check must not find the post it just sent 0 minutes away.
    await page.getByLabel('Post', { exact: true }).fill(`${text} `);
    await page.waitForTimeout(800);
    await expect(page.getByText('at the same time as this one')).toHaveCount(0);
    await expect(page.getByText('0 min apart')).toHaveCount(0);
    await expect(page.getByTestId('post-list').locator('tr', { hasText: text })).toContainText(
      'Partly failed',
    );
  } finally {
    await request.post(`${provider}/__sandbox/fail-platform`, {
      headers: control,
      data: { platform: 'photogram', message: null },
    });
  }
});
