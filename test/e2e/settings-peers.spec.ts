import { expect, screenshot, test } from './fixtures.js';

/**
 * Issue #41.1: Settings is one section per peer — labelled fields in words, the environment names
 * as small print, what a restart will change — with a Test connection that says in words what the
 * peer answered; the Overview's first step links straight to each peer's section and marks OBS
 * connected when the recorder is.
 */

const peerSections = [
  ['crm', 'CRM (EspoCRM)', 'CRM address', 'CRM_URL'],
  ['postsvc', 'Posting provider', 'Provider address', 'POSTSVC_URL'],
  ['gateway', 'Publishing gateway and live host', 'Gateway address', 'GATEWAY_URL'],
  ['automation', 'Automation (n8n)', 'n8n address', 'AUTOMATION_URL'],
  ['obs', 'Recorder (OBS)', 'OBS websocket address', 'RECORDER_OBS_URL'],
] as const;

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`settings: one section per peer, fields in words, env names as small print, what a restart changes (${viewport.width})`, async ({
    dashboard: page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/#/settings');
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    for (const [id, title, label, envName] of peerSections) {
      const section = page.getByTestId(`settings-section-${id}`);
      await expect(section.getByRole('heading', { name: title, level: 2 })).toBeVisible();
      const field = section.getByTestId(`setting-${envName}`);
      await expect(field.getByTestId('setting-label')).toHaveText(label);
      await expect(field.getByTestId('setting-env-name')).toHaveText(envName);
      await expect(section.getByTestId('restart-note')).toContainText('restart');
      await expect(section.getByRole('button', { name: 'Test connection' })).toBeVisible();
    }
    await expect(page.getByTestId('settings-section-crm').getByTestId('setting-CRM_API_KEY')).toContainText(
      'API key',
    );
    // The other panels keep their place as sections of their own.
    for (const id of ['rendering', 'webhooks', 'sandbox', 'bridge'])
      await expect(page.getByTestId(`settings-section-${id}`)).toBeVisible();
    // No table of environment variable names any more.
    await expect(page.locator('table.settings')).toHaveCount(0);
    await screenshot(page, `settings-peers-${viewport.width}`);
  });

  test(`the Overview's first step links straight to each peer's section, focused (${viewport.width})`, async ({
    dashboard: page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/#/');
    const step = page.getByTestId('first-step');
    await expect(step.getByRole('link', { name: 'Connect the CRM (EspoCRM)' })).toHaveAttribute(
      'href',
      '#/settings?section=crm',
    );
    await expect(step.getByRole('link', { name: 'Connect the posting provider' })).toHaveAttribute(
      'href',
      '#/settings?section=postsvc',
    );
    // The sandbox's recorder is connected to its simulated OBS: the step says so.
    const obs = step.getByTestId('first-step-RECORDER_OBS_URL');
    await expect(obs).toContainText('connected');
    await expect(obs.getByRole('link')).toHaveAttribute('href', '#/settings?section=obs');
    await step.screenshot({ path: `test/e2e/screenshots/first-step-peers-${viewport.width}.png` });

    await step.getByRole('link', { name: 'Connect the posting provider' }).click();
    await expect(page).toHaveURL(/#\/settings\?section=postsvc$/);
    const section = page.getByTestId('settings-section-postsvc');
    // On a loaded CI host the section was once not there within the assertion's 15 s (the URL is
    // now checked first, to tell a missed click from a slow page); its arrival gets longer.
    await expect(section).toBeVisible({ timeout: 45_000 });
    await expect(section).toBeFocused();
    await expect(section).toBeInViewport();
    // What the operator sees on arrival: the section at the top, focused (not a full-page capture).
    await page.screenshot({ path: `test/e2e/screenshots/settings-from-first-step-${viewport.width}.png` });
  });
}

test('settings: Test connection says in words what each peer answered', async ({ dashboard: page }) => {
  await page.goto('/#/settings');
  const crm = page.getByTestId('settings-section-crm');
  await crm.getByRole('button', { name: 'Test connection' }).click();
  await expect(crm.getByTestId('connection-result')).toContainText(
    /Reachable: the CRM answered in \d+ ms and accepted the key/,
  );

  const obs = page.getByTestId('settings-section-obs');
  await obs.getByRole('button', { name: 'Test connection' }).click();
  await expect(obs.getByTestId('connection-result')).toContainText(/Reachable: OBS answered in \d+ ms/);

  // Another address: tested without the saved key, which belongs elsewhere.
  const provider = page.getByTestId('settings-section-postsvc');
  await provider.getByText('Test another address').click();
  await provider.getByLabel('Address to test').fill('http://127.0.0.1:9');
  await provider.getByRole('button', { name: 'Test this address' }).click();
  const result = provider.getByTestId('connection-result');
  await expect(result).toContainText('The posting provider could not be reached');
  await expect(result).toContainText('The saved key was not sent: it belongs to http://127.0.0.1:');
  await provider.getByTestId('connection-result').scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-test-connection');

  // A wrong key given for the CRM's own address.
  await crm.getByText('Test another address').click();
  const crmUrl = await crm.getByTestId('connection-url').textContent();
  await crm.getByLabel('Address to test').fill(crmUrl ?? '');
  await crm.getByLabel('API key for this address').fill('not-the-crm-key');
  await crm.getByRole('button', { name: 'Test this address' }).click();
  await expect(crm.getByTestId('connection-result')).toContainText('The CRM refused this key');
});
