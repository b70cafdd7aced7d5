import { expect, test } from './fixtures.js';

/** Issue #30.7: Settings' sandbox panel rehearses a failure, says what the operator will see, and puts it back. */

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the sandbox panel makes the provider refuse a platform and puts it back (${viewport.width})`, async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/#/settings');
    const provider = page.getByTestId('rehearsal-postsvc');
    await expect(provider).toContainText('Working');
    await provider.getByLabel('What Posting provider should do').selectOption('refuse-platform');
    await provider.getByLabel('Platform to refuse').selectOption('photogram');
    await expect(provider.getByTestId('rehearsal-postsvc-see')).toContainText(
      'You will then see: A post to that platform',
    );
    await provider.getByRole('button', { name: 'Rehearse' }).click();
    try {
      await expect(provider).toContainText('Refuses Photogram');
      await expect(provider.getByTestId('rehearsal-postsvc-see')).toContainText('Now you see:');
      await page
        .getByTestId('sandbox-panel')
        .screenshot({ path: `test/e2e/screenshots/sandbox-panel-refusing-${viewport.width}.png` });

      const sent = await request.post(`${bridge.url}/postsvc/schedule`, {
        headers: { authorization: `Bearer ${bridge.key}` },
        data: {
          post: `Rehearsed ${viewport.width} ${Date.now().toString(36)}`,
          platforms: ['microblog', 'photogram'],
          mediaUrls: ['https://cdn.example.com/rehearsal.png'],
          scheduleDate: new Date(Date.now() + 40 * 3_600_000).toISOString(),
        },
      });
      expect(((await sent.json()) as { error: string }).error).toContain('Photogram refused it');
    } finally {
      await provider.getByRole('button', { name: 'Put back' }).click();
    }
    await expect(provider).toContainText('Working');
  });
}
