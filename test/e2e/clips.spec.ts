import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { expect, sandboxControlHeaders, screenshot, test, type BridgeUnderTest } from './fixtures.js';

const fixturePath = (name: string) => new URL(`../fixtures/transcripts/${name}`, import.meta.url);
const fixture = (name: string) => readFileSync(fixturePath(name), 'utf8');

interface Content {
  id: string;
  name: string;
}

async function firstContent(request: APIRequestContext, bridge: BridgeUnderTest): Promise<Content> {
  const response = await request.get(`${bridge.url}/api/crm/content?limit=50`, {
    headers: { authorization: `Bearer ${bridge.key}` },
  });
  expect(response.ok()).toBe(true);
  const { data } = (await response.json()) as { data: Content[] };
  expect(data.length, 'the sandbox CRM has demo content').toBeGreaterThan(0);
  return data[0]!;
}

/** The Clip records of the sandbox CRM the bridge runs against (its control route, with the sandbox's key). */
async function crmClips(
  request: APIRequestContext,
  bridge: BridgeUnderTest,
): Promise<Array<Record<string, unknown>>> {
  const health = await request.get(`${bridge.url}/health`, {
    headers: { authorization: `Bearer ${bridge.key}` },
  });
  const crmUrl = ((await health.json()) as { peers: { crm: { url: string } } }).peers.crm.url;
  const records = await request.get(`${crmUrl.replace(/\/api\/v1\/?$/, '')}/__sandbox/records/Clip`, {
    headers: await sandboxControlHeaders(request, bridge),
  });
  expect(records.ok()).toBe(true);
  return ((await records.json()) as { list: Array<Record<string, unknown>> }).list;
}

test('clips: paste a transcript, get suggestion cards, create a Draft Clip in the CRM', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const content = await firstContent(request, bridge);
  await page.goto('/#/clips');
  await expect(page.getByRole('heading', { name: 'Clips', level: 1 })).toBeVisible();
  const suggestions = page.getByTestId('clips-suggestions');
  await expect(suggestions).toContainText('No suggestions yet');
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
  await expect(page.getByLabel('Content record', { exact: true })).toContainText(content.name);
  await screenshot(page, 'clips');

  // Nothing chosen yet: the form says what is missing, the bridge is not asked.
  await page.getByRole('button', { name: 'Suggest clips' }).click();
  await expect(page.getByTestId('clips-form')).toContainText('Pick the content record');
  await expect(page.getByTestId('clips-form')).toContainText('Paste a transcript');

  await page.getByLabel('Content record', { exact: true }).selectOption(content.id);
  await page.getByLabel('Transcript', { exact: true }).fill(fixture('interview.txt'));
  await expect(page.getByTestId('clips-transcript-summary')).toContainText('time-stamped lines');
  await page.getByLabel('Clips', { exact: true }).fill('4');
  await page.getByRole('button', { name: 'Suggest clips' }).click();

  const cards = suggestions.getByTestId('clip-card');
  await expect(cards).toHaveCount(4);
  await expect(page.getByTestId('clips-summary')).toContainText('4 suggestions');
  await expect(page.getByTestId('clips-summary')).toContainText('times from the transcript');
  const first = cards.first();
  await expect(first).toContainText(/\d+:\d\d–\d+:\d\d/);
  await expect(first).toContainText('Topic');
  await expect(first).toContainText('Shortvideo');
  await expect(first.getByRole('meter', { name: 'Confidence' })).toBeVisible();
  const quote = (await first.locator('blockquote').innerText()).trim();
  expect(quote.length).toBeGreaterThan(20);
  await first.getByText('What scored').click();
  await expect(first).toContainText('Emotion');
  await screenshot(page, 'clips-suggestions');

  await first.getByRole('button', { name: 'Create draft clip' }).click();
  const created = first.getByTestId('clip-draft-created');
  await expect(created).toContainText('Draft Clip created in the CRM');
  const id = (await created.locator('.mono').innerText()).trim();

  // The record is in the CRM: a Draft on the chosen content, with the quote and whole seconds.
  const clip = (await crmClips(request, bridge)).find((record) => record.id === id);
  expect(clip).toMatchObject({ status: 'Draft', contentProductionId: content.id, hookQuote: quote });
  expect(Number.isInteger(clip?.duration)).toBe(true);
  await first.scrollIntoViewIfNeeded();
  await screenshot(page, 'clips-draft-created');
});

test('clips: an SRT file from disk, and a transcript the bridge cannot read', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const content = await firstContent(request, bridge);
  await page.goto('/#/clips');
  await page.getByLabel('Content record', { exact: true }).selectOption(content.id);

  await page.getByLabel('Transcript', { exact: true }).fill('WEBVTT\n\nNOTE only a note, no cues\n');
  await page.getByRole('button', { name: 'Suggest clips' }).click();
  const suggestions = page.getByTestId('clips-suggestions');
  await expect(suggestions.getByRole('alert')).toContainText('the WebVTT captions have no cue');
  await expect(suggestions.getByRole('alert')).toContainText('VALIDATION_ERROR');
  await screenshot(page, 'clips-error');

  await page.getByLabel('Transcript file').setInputFiles(fileURLToPath(fixturePath('solo.srt')));
  await expect(page.getByTestId('clips-transcript-summary')).toContainText('solo.srt');
  await expect(page.getByTestId('clips-transcript-summary')).toContainText('SRT captions');
  await page.getByRole('button', { name: 'Suggest clips' }).click();
  await expect(suggestions.getByTestId('clip-card')).toHaveCount(5);
  await expect(page.getByTestId('clips-summary')).toContainText('SRT');
});
