import { expect, rehearse, test } from './fixtures.js';

/**
 * Issue #30 (words; the sandbox panel's promise of what the operator will see): a peer that is
 * off is said to be off — "could not be reached" — not "check the API user's key" or "the host
 * failed", whatever the peer. Each case is rehearsed on the shared sandbox bridge and always put
 * back. (Throttling is left to the integration test: its 60 s hold would reach later specs.)
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the gateway offline: creating a broadcast says it could not be reached (${viewport.width})`, async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/#/broadcasts');
    const form = page.getByTestId('create-broadcast');
    await form.getByLabel('Name').fill(`Rehearsed offline ${viewport.width}`);
    await rehearse(request, bridge, 'gateway', 'offline');
    try {
      await form.getByRole('button', { name: 'Create broadcast' }).click();
      const error = form.getByTestId('create-broadcast-error');
      await expect(error).toContainText(
        'The broadcast was not created. The publishing gateway could not be reached: it is off, or its address in Settings is wrong.',
      );
      await expect(error).not.toContainText('The live-broadcast host failed');
      await error.scrollIntoViewIfNeeded();
      await page.screenshot({
        path: `test/e2e/screenshots/rehearsal-gateway-offline-create-${viewport.width}.png`,
      });
    } finally {
      await rehearse(request, bridge, 'gateway', 'none');
    }
  });

  test(`the CRM offline: the Guests page says it could not be reached, not to check the key (${viewport.width})`, async ({
    dashboard: page,
    request,
    bridge,
  }) => {
    // The bridge tries the CRM three times and the page asks three times before it shows an error.
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await rehearse(request, bridge, 'crm', 'offline');
    try {
      await page.goto('/#/guests');
      const failed = page.getByRole('alert').filter({ hasText: /Couldn.t load the guests/ });
      await expect(failed).toContainText('The CRM could not be reached', { timeout: 45_000 });
      await expect(failed).not.toContainText('key');
      await page.screenshot({
        path: `test/e2e/screenshots/rehearsal-crm-offline-guests-${viewport.width}.png`,
      });
    } finally {
      await rehearse(request, bridge, 'crm', 'none');
    }
  });
}
