import { expect, screenshot, test } from './fixtures.js';

/**
 * Words for people (issue #14.8): the bridge's validation details become sentences, Escape
 * cancels an edit, unsaved template edits are not lost silently, malformed variables are flagged.
 */

test('a Settings value below the rule is refused with a sentence, and Escape cancels the edit', async ({
  dashboard: page,
}) => {
  await page.goto('/#/settings');
  const row = page.getByTestId('setting-COLLECT_INTERVAL_HOURS');
  const before = await row.getByTestId('setting-value').textContent();

  await row.getByRole('button', { name: 'Edit' }).click();
  const input = row.getByLabel('Collect analytics every (hours): new value');
  await input.fill('0.5');
  await row.getByRole('button', { name: 'Save' }).click();
  const problem = row.getByRole('alert');
  await expect(problem).toHaveText('Collect analytics every (hours) must be at least 1 hour.');
  await screenshot(page, 'settings-refused');

  await input.fill('soon');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(problem).toHaveText('Collect analytics every (hours) must be a number of hours.');
  await expect(page.locator('body')).not.toContainText(/Invalid input|Too small|VALIDATION_ERROR/);

  await input.press('Escape');
  await expect(row.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(row.getByTestId('setting-value')).toHaveText(before ?? '');
});

test('the template editor flags {{name}, Escape reverts the template, leaving with unsaved edits asks', async ({
  dashboard: page,
}) => {
  await page.goto('/#/guests');
  const templates = page.getByTestId('guests-templates');
  const subject = templates.getByLabel('Subject');
  await expect(subject).not.toHaveValue('');
  const saved = await subject.inputValue();

  await subject.fill('See you on {{date}}, {{name}');
  await expect(templates.getByRole('alert')).toContainText('{{name}');
  await expect(templates.getByRole('alert')).toContainText('{{name}}');
  await expect(templates.getByRole('button', { name: 'Save templates' })).toBeDisabled();
  await templates.scrollIntoViewIfNeeded();
  await screenshot(page, 'guests-template-braces');

  await subject.press('Escape');
  await expect(subject).toHaveValue(saved);
  await expect(templates.getByRole('alert')).toHaveCount(0);

  // An unsaved edit: going to another page asks first; "Cancel" stays with the edit.
  await subject.fill(`${saved} (draft)`);
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toContain('unsaved');
  await expect(page).toHaveURL(/#\/guests/);
  await expect(subject).toHaveValue(`${saved} (draft)`);

  // "OK" leaves and drops the edit.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page).toHaveURL(/#\/$/);
});
