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

  // From the production's page the draft opens its own card, and the analysis its suggestions (issue #42.1).
  const analysisId = /[?&]analysis=([^&]+)/.exec(page.url())![1]!;
  await page.goto(`/#/productions/${content.id}`);
  const threadClips = page.getByTestId('thread-clips');
  await expect(threadClips.locator(`a[href="#/clips?analysis=${analysisId}"]`)).toBeVisible();
  await threadClips.locator(`a[href="#/clips?analysis=${analysisId}&clip=1"]`).click();
  await expect(cards.first()).toHaveClass(/cl-card-focused/);
  await expect(cards.nth(1)).not.toHaveClass(/cl-card-focused/);
  await expect(cards.first()).toBeInViewport();
  // The card as it was left: its draft said, no second "Create draft clip" beside it.
  await expect(cards.first().getByTestId('clip-draft-kept')).toContainText(id);
  await expect(cards.first().getByRole('button', { name: 'Create draft clip' })).toBeHidden();
  await screenshot(page, 'clips-card-from-production');
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

/** Records a take on the sandbox's simulated OBS with one live mark about a second in. */
async function takeWithMark(request: APIRequestContext, bridge: BridgeUnderTest): Promise<string> {
  const headers = { authorization: `Bearer ${bridge.key}` };
  const api = (path: string) => `${bridge.url}/api/recorder${path}`;
  const status = async () =>
    (await (await request.get(api('/status'), { headers })).json()) as {
      connection: { connected: boolean };
      recording: { active: boolean };
    };
  await expect.poll(async () => (await status()).connection.connected).toBe(true);
  expect((await request.post(api('/filename'), { headers, data: { filename: 'e2e clips' } })).ok()).toBe(
    true,
  );
  expect(
    (await request.post(`${bridge.url}/api/sandbox/obs`, { headers, data: { action: 'start' } })).ok(),
  ).toBe(true);
  await expect.poll(async () => (await status()).recording.active).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  expect((await request.post(api('/marks'), { headers, data: { label: 'great answer' } })).ok()).toBe(true);
  expect(
    (await request.post(`${bridge.url}/api/sandbox/obs`, { headers, data: { action: 'stop' } })).ok(),
  ).toBe(true);
  let name = '';
  await expect
    .poll(async () => {
      const { takes } = (await (await request.get(api('/takes'), { headers })).json()) as {
        takes: Array<{ name: string; stoppedAt: string | null; marks: unknown[] }>;
      };
      name = takes[0]?.stoppedAt && takes[0].marks.length === 1 ? takes[0].name : '';
      return name;
    })
    .not.toBe('');
  return name;
}

test('clips: a take’s mark pins a clip; review it, download its SRT, WebVTT and the EDL', async ({
  dashboard: page,
  request,
  bridge,
}) => {
  const content = await firstContent(request, bridge);
  const takeName = await takeWithMark(request, bridge);
  await page.goto('/#/clips');
  await page.getByLabel('Content record', { exact: true }).selectOption(content.id);
  const take = page.getByLabel(/^Take/);
  // The chooser shows each take's reel (issue #39.1).
  await expect(take).toContainText(new RegExp(`${takeName} · reel [A-Z0-9]{8} · 1 mark`));
  await take.selectOption({
    label: (await take.locator('option', { hasText: takeName }).first().innerText()).trim(),
  });
  await expect(page.getByTestId('clips-take-help')).toContainText('Its 1 live mark each pin a clip');
  await page.getByLabel('Transcript', { exact: true }).fill(fixture('interview.txt'));
  await page.getByLabel('Clips', { exact: true }).fill('3');
  await page.getByRole('button', { name: 'Suggest clips' }).click();

  const suggestions = page.getByTestId('clips-suggestions');
  const cards = suggestions.getByTestId('clip-card');
  await expect(cards).toHaveCount(3);
  const first = cards.first();
  await expect(first).toContainText('Marked live');
  await expect(first.locator('.cl-reason')).toContainText(/^Marked live at 00:00:0\d \("great answer"\)/);
  // Reasons in words; the AFINN score stays in "What scored".
  for (const reason of await suggestions.locator('.cl-reason').allInnerTexts())
    expect(reason).not.toContain('AFINN');

  // Review: the out one sentence earlier; the card's time and duration follow.
  const before = await first.locator('.cl-time').innerText();
  await first.getByRole('button', { name: 'Out: one sentence earlier' }).click();
  await expect(first.getByTestId('clip-reviewed')).toContainText('sentences');
  await expect(first.locator('.cl-time')).not.toHaveText(before);

  const download = async (button: ReturnType<typeof first.getByRole>) => {
    const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const path = await file.path();
    return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
  };
  const srt = await download(first.getByRole('button', { name: 'SRT' }));
  // Named after the take and the clip (issue #39.7), no longer the analysis id.
  expect(srt.name).toBe(`${takeName}-clip-1.srt`);
  expect(srt.text).toMatch(/^1\n00:00:00,000 --> 00:00:\d\d,\d{3}\n/);
  const vtt = await download(first.getByRole('button', { name: 'WebVTT' }));
  expect(vtt.name).toMatch(/-clip-1\.vtt$/);
  expect(vtt.text).toMatch(/^WEBVTT\n\n1\n00:00:00\.000 --> /);
  await page.getByLabel('EDL frame rate').selectOption('29.97');
  const edl = await download(page.getByTestId('clips-exports').getByRole('button', { name: 'EDL' }));
  expect(edl.name).toMatch(/-29_97fps\.edl$/);
  const edlLines = edl.text.split('\n');
  expect(edlLines[1]).toBe('FCM: DROP FRAME');
  // The take's reel and audio (AA/V: stereo, OBS's default, the simulated OBS's file unreadable).
  expect(edlLines.filter((line) => /^00\d {2}[A-Z0-9]{8} AA\/V {2}C {8}/.test(line))).toHaveLength(3);
  expect(edl.text).toContain(`* FROM CLIP NAME: ${takeName}`);
  await screenshot(page, 'clips-review-exports');

  // The draft follows the review, and says in the activity feed's words what does not fit.
  await first.getByRole('button', { name: 'Create draft clip' }).click();
  await expect(first.getByTestId('clip-draft-created')).toBeVisible();
  const fit = first.getByTestId('clip-draft-fit');
  await expect(fit).toContainText('Microblog: prefers 16:9 or 1:1, the clip exists in 9:16 only');
  await expect(fit).not.toContainText('""');
  await first.scrollIntoViewIfNeeded();
  await screenshot(page, 'clips-draft-fit');

  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'clips-review-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, 'clips-review-1280');
});
